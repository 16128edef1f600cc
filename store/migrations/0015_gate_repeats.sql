-- 0015: validate_gate asked again with nothing changed. A warm repeat of
-- the same gate with the same answer, its gate event still the session's
-- last, is counted here instead of appending tool:validate_gate and
-- gate:PHASE:STATUS again (and touching, and rewriting the phase result):
-- one statement instead of a five-statement transaction. Outside the
-- event chain (session/eventchain.go hashes events only): a repeat adds no
-- event, so no pinned chain moves. seq is the repeated gate event's.
CREATE TABLE gate_repeats (
	session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
	seq        INTEGER NOT NULL,
	repeats    INTEGER NOT NULL,
	first_at   INTEGER NOT NULL,
	last_at    INTEGER NOT NULL,
	expires_at INTEGER NOT NULL,
	PRIMARY KEY (session_id, seq)
) WITHOUT ROWID;

-- A repeat is activity: it moves the session's idle expiry as the touch
-- of a full gate call does, in the same statement.
CREATE TRIGGER gate_repeats_touch_insert AFTER INSERT ON gate_repeats BEGIN
	UPDATE sessions SET last_activity = new.last_at, expires_at = new.expires_at WHERE id = new.session_id;
END;
CREATE TRIGGER gate_repeats_touch_update AFTER UPDATE ON gate_repeats BEGIN
	UPDATE sessions SET last_activity = new.last_at, expires_at = new.expires_at WHERE id = new.session_id;
END;
