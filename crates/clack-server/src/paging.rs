//! Pages of the listings paged by place: a match's games in the order played and a ladder's
//! board, best first. Such a listing only grows at its end, so a page token is simply the place
//! of the page's first entry, in decimal.
//!
//! A token is a number the client sends back, so no arithmetic is done on it that could wrap:
//! any number past the end gives an empty last page with no token to follow, so a client that
//! follows tokens always stops. A token that is not a number (`u64`) is refused.

use std::ops::Range;

use clack_log::convert::FieldError;

/// The most entries a page holds, and how many when the request says 0.
const MOST: u32 = 100;
const DEFAULT: u32 = 20;

/// One page asked for: where it starts and how many entries it may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Page {
    from: u64,
    size: u64,
}

impl Page {
    /// The page a request's `page_token` and `page_size` ask for.
    pub(crate) fn asked(page_token: &str, page_size: u32) -> Result<Page, FieldError> {
        if page_size > MOST {
            return Err(FieldError::new("page_size", format!("at most {MOST}")));
        }
        let from = match page_token {
            "" => 0,
            token => token.parse().map_err(|_| FieldError::new("page_token", "not a token of this listing"))?,
        };
        let size = if page_size == 0 { DEFAULT } else { page_size };
        Ok(Page { from, size: u64::from(size) })
    }

    /// The places of this page's entries in a listing of `len` entries (empty past its end).
    pub(crate) fn range(self, len: usize) -> Range<usize> {
        let len = len as u64;
        let start = self.from.min(len);
        let end = start + self.size.min(len - start);
        // Both are at most `len`, which came from a usize.
        start as usize..end as usize
    }

    /// The token of the page after this one in a listing of `len` entries; empty on the last.
    pub(crate) fn next_token(self, len: usize) -> String {
        let end = self.range(len).end;
        if end < len { end.to_string() } else { String::new() }
    }
}

#[cfg(test)]
mod tests {
    use super::Page;

    #[test]
    fn pages_follow_one_another_and_stop_at_the_end() {
        let first = Page::asked("", 2).expect("a page");
        assert_eq!((first.range(5), first.next_token(5).as_str()), (0..2, "2"));
        let last = Page::asked("4", 2).expect("a page");
        assert_eq!((last.range(5), last.next_token(5).as_str()), (4..5, ""));
        let default = Page::asked("", 0).expect("a page");
        assert_eq!(default.range(50), 0..20);
    }

    #[test]
    fn a_place_past_the_end_is_an_empty_last_page_whatever_its_size() {
        for token in [u64::MAX, u64::MAX - 1, u64::MAX - 99, 5, 6] {
            let page = Page::asked(&token.to_string(), 100).expect("a page");
            assert_eq!((page.range(5), page.next_token(5).as_str()), (5..5, ""), "{token}");
        }
    }

    #[test]
    fn a_token_that_is_no_place_and_a_page_too_large_are_refused() {
        for token in ["x", "-1", "18446744073709551616", " 1"] {
            assert_eq!(Page::asked(token, 1).expect_err(token).field, "page_token");
        }
        assert_eq!(Page::asked("", 101).expect_err("too large").field, "page_size");
    }
}
