-- +goose Up
-- The audit trail becomes a hash chain (issue 28): each row holds its
-- place (seq), the hash of the row before it (prev_hash) and its own hash,
-- SHA-256 over its fields and prev_hash (auditchain.go), all as lowercase
-- hex. audit_head is the chain's end, one row (id 1) that every append
-- locks, so appends from every process and instance take turns; it is
-- written at the first append (the migrations write no rows). Rows from
-- before this migration are chained, in id order, when the store is first
-- opened (chainLegacyAudit): until then their hash is NULL.
ALTER TABLE audit_log ADD COLUMN seq BIGINT;
ALTER TABLE audit_log ADD COLUMN prev_hash TEXT;
ALTER TABLE audit_log ADD COLUMN hash TEXT;
CREATE UNIQUE INDEX audit_log_seq ON audit_log(seq);
CREATE INDEX audit_log_unchained ON audit_log(id) WHERE hash IS NULL;

CREATE TABLE audit_head (
    id INT PRIMARY KEY CHECK (id = 1),
    seq BIGINT NOT NULL,
    hash TEXT NOT NULL
);

-- Append-only: no row is deleted, none changed; a new row comes chained.
-- The one update allowed chains a row from before this migration, once,
-- without changing what it says. (TRUNCATE is not refused: the tests
-- empty their databases with it; audit verify finds a truncated chain by
-- audit_head, and the last hash it prints, kept elsewhere, finds the rest.)
-- +goose StatementBegin
CREATE FUNCTION audit_log_append_only() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        IF NEW.hash IS NULL OR NEW.seq IS NULL OR NEW.prev_hash IS NULL THEN
            RAISE EXCEPTION 'audit_log rows are appended chained';
        END IF;
        RETURN NEW;
    END IF;
    IF TG_OP = 'UPDATE' AND OLD.hash IS NULL AND NEW.hash IS NOT NULL AND NEW.seq IS NOT NULL
        AND NEW.prev_hash IS NOT NULL
        AND (NEW.id, NEW.company_id, NEW.subject_id, NEW.actor, NEW.actor_id, NEW.actor_name, NEW.address,
             NEW.action, NEW.detail, NEW.created_at)
        IS NOT DISTINCT FROM (OLD.id, OLD.company_id, OLD.subject_id, OLD.actor, OLD.actor_id, OLD.actor_name,
             OLD.address, OLD.action, OLD.detail, OLD.created_at) THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'audit_log is append-only';
END
$$ LANGUAGE plpgsql;
-- +goose StatementEnd

CREATE TRIGGER audit_log_append_only BEFORE INSERT OR UPDATE OR DELETE ON audit_log
    FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();

-- +goose Down
DROP TRIGGER audit_log_append_only ON audit_log;
DROP FUNCTION audit_log_append_only();
DROP TABLE audit_head;
DROP INDEX audit_log_unchained;
DROP INDEX audit_log_seq;
ALTER TABLE audit_log DROP COLUMN hash;
ALTER TABLE audit_log DROP COLUMN prev_hash;
ALTER TABLE audit_log DROP COLUMN seq;
