-- +goose Up
-- The audit trail becomes a hash chain (issue 28): each row holds its
-- place (seq), the hash of the row before it (prev_hash) and its own hash,
-- SHA-256 over its fields and prev_hash (auditchain.go), all as lowercase
-- hex. audit_head is the chain's end, one row (id 1) that every append
-- locks, so appends from every process and instance take turns; it is
-- written at the first append (the migrations write no rows). Rows from
-- before this migration are chained, in id order, when the store is first
-- opened (chainLegacyAudit): until then their hash is NULL.
ALTER TABLE audit_log ADD COLUMN seq INTEGER;
ALTER TABLE audit_log ADD COLUMN prev_hash TEXT;
ALTER TABLE audit_log ADD COLUMN hash TEXT;
CREATE UNIQUE INDEX audit_log_seq ON audit_log(seq);
CREATE INDEX audit_log_unchained ON audit_log(id) WHERE hash IS NULL;

CREATE TABLE audit_head (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    seq INTEGER NOT NULL,
    hash TEXT NOT NULL
);

-- Append-only: no row is deleted, none changed; a new row comes chained.
-- The one update allowed chains a row from before this migration, once,
-- without changing what it says.
-- +goose StatementBegin
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log BEGIN
    SELECT RAISE(ABORT, 'audit_log is append-only');
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
WHEN OLD.hash IS NOT NULL OR NEW.hash IS NULL OR NEW.seq IS NULL OR NEW.prev_hash IS NULL
    OR NEW.id IS NOT OLD.id OR NEW.company_id IS NOT OLD.company_id OR NEW.subject_id IS NOT OLD.subject_id
    OR NEW.actor IS NOT OLD.actor OR NEW.actor_id IS NOT OLD.actor_id OR NEW.actor_name IS NOT OLD.actor_name
    OR NEW.address IS NOT OLD.address OR NEW.action IS NOT OLD.action OR NEW.detail IS NOT OLD.detail
    OR NEW.created_at IS NOT OLD.created_at
BEGIN
    SELECT RAISE(ABORT, 'audit_log is append-only');
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER audit_log_chained BEFORE INSERT ON audit_log
WHEN NEW.hash IS NULL OR NEW.seq IS NULL OR NEW.prev_hash IS NULL
BEGIN
    SELECT RAISE(ABORT, 'audit_log rows are appended chained');
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER audit_log_chained;
DROP TRIGGER audit_log_no_update;
DROP TRIGGER audit_log_no_delete;
DROP TABLE audit_head;
DROP INDEX audit_log_unchained;
DROP INDEX audit_log_seq;
ALTER TABLE audit_log DROP COLUMN hash;
ALTER TABLE audit_log DROP COLUMN prev_hash;
ALTER TABLE audit_log DROP COLUMN seq;
