-- A phase's gate reads the phase's evidence and content_hash evidence of any
-- phase, not every command a session observed
-- (store/migrations/0011_evidence_gate.sql).
CREATE INDEX evidence_phase ON evidence (session_id, phase, id);
CREATE INDEX evidence_content_hash ON evidence (session_id, id) WHERE kind = 'content_hash';
