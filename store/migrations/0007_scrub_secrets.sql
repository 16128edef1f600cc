-- 0007: privacy as documented (issue 17.8).
-- Manual evidence used to keep the first line of its text as its reference;
-- it now keeps an explicit --ref only. Drop the stored first lines, except
-- the reasons of "condition does not hold" and "not applicable", which are
-- the record of that decision. The Go step of this migration (scrubSecrets
-- in store/scrub.go) then redacts secret-looking values in every text
-- column, as every write now does.
UPDATE evidence SET ref = '' WHERE kind = 'manual' AND step NOT IN ('condition', 'not_applicable');
