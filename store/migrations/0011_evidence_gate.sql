-- A phase's gate reads the phase's evidence and content_hash evidence of any
-- phase. A session with agent hooks gathers evidence for every shell command,
-- so through evidence_session every gate check read all of it and cost more
-- as the session went on. GateEvidence searches these two indexes instead;
-- its query names the kind as a literal, as the partial index needs.
CREATE INDEX evidence_phase ON evidence (session_id, phase, id);
CREATE INDEX evidence_content_hash ON evidence (session_id, id) WHERE kind = 'content_hash';
