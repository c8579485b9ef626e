-- An owner's bots, for the quota of bots per owner: counted in the transaction that makes a new
-- bot (cluster/bots.rs), so one indexed count per new bot, never a scan of every bot.
CREATE INDEX bots_by_quota_key ON bots (quota_key);
