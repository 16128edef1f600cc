-- A listing's verdicts read each session's not-applicable marks alone,
-- not every row a session observed (SessionVerdictInputs), as SQLite's 0018.
CREATE INDEX evidence_na_marks ON evidence (session_id, id) WHERE step IN ('not_applicable', 'condition');
