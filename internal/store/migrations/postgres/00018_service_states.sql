-- +goose Up
-- Where each service of an order stands after submission, as the staff
-- set it (portal service set): a row per order and service code; no row
-- is pending. reason is a code of portal.ServiceReasons; note is the
-- staff's own (the applicant reads only a reason's date). The estimate is
-- eta_min to eta_max business days after eta_from (NULL: none).
CREATE TABLE order_service_states (
    order_id BIGINT NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
    code TEXT NOT NULL,
    state TEXT NOT NULL,
    reason TEXT NOT NULL DEFAULT '',
    note TEXT NOT NULL DEFAULT '',
    eta_min INTEGER NOT NULL DEFAULT 0,
    eta_max INTEGER NOT NULL DEFAULT 0,
    eta_from BIGINT,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (order_id, code)
);

-- A company's own estimates per service code (company preference
-- eta.CODE), in place of portal's defaults.
CREATE TABLE company_service_etas (
    company_id BIGINT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    code TEXT NOT NULL,
    min_days INTEGER NOT NULL,
    max_days INTEGER NOT NULL,
    PRIMARY KEY (company_id, code)
);

-- +goose Down
DROP TABLE company_service_etas;
DROP TABLE order_service_states;
