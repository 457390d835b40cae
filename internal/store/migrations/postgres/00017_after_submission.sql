-- +goose Up
-- What happens after submission shares three tables: the audit trail,
-- the employers' webhook events, and the text messages to applicants.

-- The audit trail: one append-only row per action on an applicant's
-- screening (who, what, whose, when, from where). No foreign keys, so
-- removing an applicant or a company never removes its record. actor is
-- applicant, command-line, api-key or system; actor_id the subject's or
-- the key's id; actor_name the operator's login on the command line.
CREATE TABLE audit_log (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    company_id BIGINT NOT NULL,
    subject_id BIGINT NOT NULL,
    actor TEXT NOT NULL,
    actor_id BIGINT NOT NULL DEFAULT 0,
    actor_name TEXT NOT NULL DEFAULT '',
    address TEXT NOT NULL DEFAULT '',
    action TEXT NOT NULL,
    detail TEXT NOT NULL DEFAULT '',
    created_at BIGINT NOT NULL
);
CREATE INDEX audit_log_subject ON audit_log(subject_id, id);
CREATE INDEX audit_log_company ON audit_log(company_id, id);

-- Events for the employers' systems (webhooks), written in the
-- transaction of what they tell; their delivery reads them from here.
-- payload is the JSON body sent; it names ids and states, never PII.
CREATE TABLE webhook_events (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    company_id BIGINT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    subject_id BIGINT NOT NULL,
    type TEXT NOT NULL,
    payload TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX webhook_events_company ON webhook_events(company_id, id);

-- Text messages to applicants, like the e-mail outbox: queued here in the
-- transaction of what they tell, sent by the SMS provider (the sandbox
-- by default). A text holds no link that signs anyone in.
CREATE TABLE sms_outbox (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    subject_id BIGINT NOT NULL,
    to_number TEXT NOT NULL,
    body TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    sent_at BIGINT,
    attempts BIGINT NOT NULL DEFAULT 0,
    last_error TEXT NOT NULL DEFAULT '',
    provider_id TEXT NOT NULL DEFAULT '',
    claimed_until BIGINT
);

-- +goose Down
DROP TABLE sms_outbox;
DROP TABLE webhook_events;
DROP TABLE audit_log;
