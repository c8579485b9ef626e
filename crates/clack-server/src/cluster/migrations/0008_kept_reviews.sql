-- Kept reviews, readable through any shard: the engine's review of a finished game at one level
-- (a GameReview as protobuf). A game's log never changes after its end, so neither does its
-- review: a row is written once, and writing it again changes nothing.
CREATE TABLE kept_reviews (
    game_id text NOT NULL,
    level text NOT NULL,
    review bytea NOT NULL,
    kept_unix_millis bigint NOT NULL,
    PRIMARY KEY (game_id, level)
);
