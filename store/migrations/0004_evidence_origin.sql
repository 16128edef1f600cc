-- Evidence has two ranks: observed (sessiongate saw the command run: its
-- exit code, duration and output hash) and claimed (an agent said so), and
-- may name the requirement it satisfies. Existing rows are claimed.
ALTER TABLE evidence ADD COLUMN origin TEXT NOT NULL DEFAULT 'claimed';
ALTER TABLE evidence ADD COLUMN requirement TEXT NOT NULL DEFAULT '';
ALTER TABLE evidence ADD COLUMN source TEXT NOT NULL DEFAULT '';
ALTER TABLE evidence ADD COLUMN command TEXT NOT NULL DEFAULT '';
ALTER TABLE evidence ADD COLUMN exit_code INTEGER;
ALTER TABLE evidence ADD COLUMN duration_ns INTEGER NOT NULL DEFAULT 0;
