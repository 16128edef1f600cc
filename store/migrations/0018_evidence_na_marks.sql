-- A listing's verdicts read each session's not-applicable marks
-- (SessionVerdictInputs). Through evidence_session that read every row a
-- session observed (agent hooks record one per shell command); this index
-- holds the marks alone. Its condition is written as the query's literal,
-- as SQLite needs for a partial index.
CREATE INDEX evidence_na_marks ON evidence (session_id, id) WHERE step IN ('not_applicable', 'condition');
