package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"applicantportal/internal/portal"
)

// DisputeService is portal.DisputeService on the store: the applicant's
// side of disputes. The provider's side is OperatorDisputeService.
type DisputeService struct {
	*conn
	files *FileStore
}

var _ portal.DisputeService = (*DisputeService)(nil)

// OperatorDisputeService is portal.OperatorDisputeService on the store.
type OperatorDisputeService struct{ db *DB }

var _ portal.OperatorDisputeService = (*OperatorDisputeService)(nil)

// Disputes hands out the applicant's dispute service.
func (db *DB) Disputes() *DisputeService {
	return &DisputeService{conn: db.conn, files: NewFileStore(db)}
}

// Sealed texts are bound to their row, so one copied into another dispute
// or message does not open.
func disputeExplanationPlace(subjectID, disputeID int64) string {
	return fmt.Sprintf("disputes.explanation/%d/%d", subjectID, disputeID)
}

func disputeResolutionPlace(subjectID, disputeID int64) string {
	return fmt.Sprintf("disputes.resolution/%d/%d", subjectID, disputeID)
}

func disputeMessagePlace(disputeID, messageID int64) string {
	return fmt.Sprintf("dispute_messages.body/%d/%d", disputeID, messageID)
}

func (s *conn) sealDisputeText(text, place string) ([]byte, error) {
	if s.cfg.Sealer == nil {
		return nil, errNoDataKey
	}
	return s.cfg.Sealer.SealFor([]byte(text), place)
}

func (s *conn) openDisputeText(sealed []byte, place string) (string, error) {
	if s.cfg.Sealer == nil {
		return "", errNoDataKey
	}
	plain, err := s.cfg.Sealer.OpenFor(sealed, place)
	if err != nil {
		// Altered, another key, or moved from another row: an internal
		// error that names no content.
		return "", fmt.Errorf("store: open %s: %w", place, err)
	}
	return string(plain), nil
}

var errDisputeNotFound = portal.Errorf(portal.ENOTFOUND, "Dispute not found.")

const disputeColumns = `d.id, d.subject_id, d.reason, d.service_code, d.service_name, d.explanation, d.state, d.outcome,
	d.resolution, d.received_at, d.due_at, d.extended, d.resolved_at`

// scanDispute reads a row of disputeColumns and opens its sealed texts.
func (s *conn) scanDispute(row interface{ Scan(...any) error }) (*portal.Dispute, error) {
	var d portal.Dispute
	var explanation, resolution []byte
	var received, due int64
	var resolved sql.NullInt64
	if err := row.Scan(&d.ID, &d.SubjectID, &d.Reason, &d.ServiceCode, &d.ServiceName, &explanation, &d.State, &d.Outcome,
		&resolution, &received, &due, &d.Extended, &resolved); err != nil {
		return nil, err
	}
	d.ReceivedAt, d.DueAt, d.ResolvedAt = fromMS(received), fromMS(due), nullTime(resolved)
	var err error
	if d.Explanation, err = s.openDisputeText(explanation, disputeExplanationPlace(d.SubjectID, d.ID)); err != nil {
		return nil, err
	}
	if len(resolution) > 0 {
		if d.Resolution, err = s.openDisputeText(resolution, disputeResolutionPlace(d.SubjectID, d.ID)); err != nil {
			return nil, err
		}
	}
	return &d, nil
}

// findDispute reads a dispute with its messages and files. subjectID (or
// companyID, for operators; 0 is any) must be the dispute's, else it is
// ENOTFOUND.
func (s *conn) findDispute(ctx context.Context, q queryer, subjectID, companyID, disputeID int64) (*portal.Dispute, error) {
	d, err := s.scanDispute(q.QueryRowContext(ctx, `SELECT `+disputeColumns+` FROM disputes d JOIN subjects s ON s.id = d.subject_id
		WHERE d.id = $1 AND (CAST($2 AS BIGINT) = 0 OR d.subject_id = $2) AND (CAST($3 AS BIGINT) = 0 OR s.company_id = $3)`, disputeID, subjectID, companyID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errDisputeNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("store: dispute %d: %w", disputeID, err)
	}
	if err := s.disputeMessages(ctx, q, d); err != nil {
		return nil, err
	}
	return d, s.disputeFiles(ctx, q, d)
}

func (s *conn) disputeMessages(ctx context.Context, q queryer, d *portal.Dispute) error {
	rows, err := q.QueryContext(ctx, `SELECT id, author, body, created_at FROM dispute_messages WHERE dispute_id = $1 ORDER BY id`, d.ID)
	if err != nil {
		return fmt.Errorf("store: dispute messages: %w", err)
	}
	defer rows.Close()
	d.Messages = []portal.DisputeMessage{}
	for rows.Next() {
		m := portal.DisputeMessage{Files: []portal.File{}}
		var body []byte
		var created int64
		if err := rows.Scan(&m.ID, &m.Author, &body, &created); err != nil {
			return fmt.Errorf("store: dispute messages: %w", err)
		}
		if m.Text, err = s.openDisputeText(body, disputeMessagePlace(d.ID, m.ID)); err != nil {
			return err
		}
		m.CreatedAt = fromMS(created)
		d.Messages = append(d.Messages, m)
	}
	return rows.Err()
}

// disputeFiles sorts the dispute's files onto it and its messages.
func (s *conn) disputeFiles(ctx context.Context, q queryer, d *portal.Dispute) error {
	rows, err := q.QueryContext(ctx, `SELECT COALESCE(df.message_id, 0), `+fileColumns+`
		FROM dispute_files df JOIN files f ON f.id = df.file_id WHERE df.dispute_id = $1 AND f.complete = TRUE ORDER BY df.id`, d.ID)
	if err != nil {
		return fmt.Errorf("store: dispute files: %w", err)
	}
	defer rows.Close()
	d.Files = []portal.File{}
	at := map[int64]int{}
	for i, m := range d.Messages {
		at[m.ID] = i
	}
	for rows.Next() {
		var f portal.File
		var messageID int64
		if err := s.scanFile(rows, &f, &messageID); err != nil {
			return fmt.Errorf("store: dispute files: %w", err)
		}
		if i, ok := at[messageID]; ok {
			d.Messages[i].Files = append(d.Messages[i].Files, f)
		} else {
			d.Files = append(d.Files, f)
		}
	}
	return rows.Err()
}

// storeDisputeFiles stores each upload under the document upload rules,
// at most portal.MaxDisputeFiles; on a failure it drops what it stored.
func storeDisputeFiles(ctx context.Context, files *FileStore, subjectID int64, next portal.Uploads) ([]*portal.File, error) {
	var stored []*portal.File
	for {
		up, err := next()
		if err == nil && up != nil && len(stored) == portal.MaxDisputeFiles {
			err = portal.FieldErrors{portal.FieldErrorf("files", "Attach %d files or fewer", portal.MaxDisputeFiles)}.Err()
		}
		if err == nil && up != nil {
			var f *portal.File
			if f, err = putUpload(ctx, files, subjectID, *up); err == nil {
				stored = append(stored, f)
				continue
			}
		}
		if err != nil {
			return nil, errors.Join(err, dropDisputeFiles(ctx, files, stored))
		}
		return stored, nil
	}
}

func dropDisputeFiles(ctx context.Context, files *FileStore, stored []*portal.File) error {
	var errs []error
	for _, f := range stored {
		errs = append(errs, dropFile(ctx, files, f.ID))
	}
	return errors.Join(errs...)
}

func linkDisputeFiles(ctx context.Context, tx *sql.Tx, disputeID int64, messageID any, stored []*portal.File) error {
	for _, f := range stored {
		if _, err := tx.ExecContext(ctx, `INSERT INTO dispute_files (dispute_id, message_id, file_id) VALUES ($1, $2, $3)`,
			disputeID, messageID, f.ID); err != nil {
			return fmt.Errorf("store: dispute files: %w", err)
		}
	}
	return nil
}

// addDisputeMessage adds a message with its body sealed to its row and
// links its files.
func (s *conn) addDisputeMessage(ctx context.Context, tx *sql.Tx, disputeID int64, author, text string, stored []*portal.File) error {
	var id int64
	if err := tx.QueryRowContext(ctx, `INSERT INTO dispute_messages (dispute_id, author, body, created_at) VALUES ($1, $2, $3, $4) RETURNING id`,
		disputeID, author, []byte{}, ms(s.now())).Scan(&id); err != nil {
		return fmt.Errorf("store: dispute message: %w", err)
	}
	sealed, err := s.sealDisputeText(text, disputeMessagePlace(disputeID, id))
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE dispute_messages SET body = $1 WHERE id = $2`, sealed, id); err != nil {
		return fmt.Errorf("store: dispute message: %w", err)
	}
	return linkDisputeFiles(ctx, tx, disputeID, id, stored)
}

// disputeWebhook is the data of a dispute's webhook events: ids and
// states, never the applicant's words.
type disputeWebhook struct {
	DisputeID   int64  `json:"disputeId"`
	State       string `json:"state"`
	Reason      string `json:"reason"`
	ServiceCode string `json:"serviceCode,omitempty"`
	Outcome     string `json:"outcome,omitempty"`
	DueAt       string `json:"dueAt"`
}

// record writes what every change of a dispute shares, in its
// transaction: the audit row and the webhook event.
func (s *conn) recordDispute(ctx context.Context, tx *sql.Tx, d *portal.Dispute, action, event, detail string) error {
	if err := s.audit(ctx, tx, d.SubjectID, action, fmt.Sprintf("dispute %d: %s", d.ID, detail)); err != nil {
		return err
	}
	return s.queueWebhook(ctx, tx, d.SubjectID, event, disputeWebhook{DisputeID: d.ID, State: d.State, Reason: d.Reason,
		ServiceCode: d.ServiceCode, Outcome: d.Outcome, DueAt: d.DueAt.UTC().Format(time.RFC3339)})
}

// disputeSubject is what a dispute's checks and notices need of the
// applicant: the order status (the subject's, or the order's when an
// operator moved it further) and the company's name.
func disputeSubject(ctx context.Context, q queryer, subjectID int64) (status, orderStatus portal.StatusID, company string, err error) {
	err = q.QueryRowContext(ctx, `SELECT s.status_id, COALESCE((SELECT o.status_id FROM orders o JOIN profiles p ON p.id = o.profile_id
			WHERE p.subject_id = s.id ORDER BY o.id DESC LIMIT 1), -1), c.name
		FROM subjects s JOIN companies c ON c.id = s.company_id WHERE s.id = $1`, subjectID).Scan(&status, &orderStatus, &company)
	return status, orderStatus, company, notFound(err, "Subject")
}

// checkCanDispute answers the company's name when the applicant may open
// a dispute (portal.CanDispute), ErrDisputeTooSoon otherwise.
func checkCanDispute(ctx context.Context, q queryer, subjectID int64) (string, error) {
	status, order, company, err := disputeSubject(ctx, q, subjectID)
	if err != nil {
		return "", err
	}
	if !portal.CanDispute(status) && !portal.CanDispute(order) {
		return "", portal.ErrDisputeTooSoon
	}
	return company, nil
}

// disputedService is the name of the package's service code; a code not
// in the applicant's package is EINVALID on serviceCode. "" is the
// report as a whole.
func (s *conn) disputedService(ctx context.Context, q queryer, subjectID int64, code string) (string, error) {
	if code == "" {
		return "", nil
	}
	_, pkg, err := s.subjectPackage(ctx, q, subjectID)
	if err != nil {
		return "", err
	}
	if pkg != nil {
		for _, svc := range pkg.Services {
			if svc.Code == code {
				return svc.Name, nil
			}
		}
	}
	return "", portal.FieldErrors{{Field: "serviceCode", Message: "Select the report or one of its services"}}.Err()
}

// Disputes lists the applicant's disputes, newest first.
func (s *DisputeService) Disputes(ctx context.Context, subjectID int64) ([]portal.Dispute, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+disputeColumns+` FROM disputes d WHERE d.subject_id = $1 ORDER BY d.id DESC`, subjectID)
	if err != nil {
		return nil, fmt.Errorf("store: disputes: %w", err)
	}
	defer rows.Close()
	out := []portal.Dispute{}
	for rows.Next() {
		d, err := s.scanDispute(rows)
		if err != nil {
			return nil, fmt.Errorf("store: disputes: %w", err)
		}
		out = append(out, *d)
	}
	return out, rows.Err()
}

// Dispute reads one of the applicant's disputes.
func (s *DisputeService) Dispute(ctx context.Context, subjectID, disputeID int64) (*portal.Dispute, error) {
	return s.findDispute(ctx, s.db, subjectID, 0, disputeID)
}

// OpenDispute checks the request before it reads a file, stores the
// evidence, then opens the dispute in one transaction (checking again),
// with its audit row, webhook event and the applicant's receipt.
func (s *DisputeService) OpenDispute(ctx context.Context, subjectID int64, n portal.NewDispute, next portal.Uploads) (*portal.Dispute, error) {
	if _, err := checkCanDispute(ctx, s.db, subjectID); err != nil {
		return nil, err
	}
	if err := n.Validate(); err != nil {
		return nil, err
	}
	if _, err := s.disputedService(ctx, s.db, subjectID, n.ServiceCode); err != nil {
		return nil, err
	}
	stored, err := storeDisputeFiles(ctx, s.files, subjectID, next)
	if err != nil {
		return nil, err
	}
	var d *portal.Dispute
	err = s.tx(ctx, func(tx *sql.Tx) error {
		company, err := checkCanDispute(ctx, tx, subjectID)
		if err != nil {
			return err
		}
		name, err := s.disputedService(ctx, tx, subjectID, n.ServiceCode)
		if err != nil {
			return err
		}
		now := s.now()
		d = &portal.Dispute{SubjectID: subjectID, Reason: n.Reason, ServiceCode: n.ServiceCode, ServiceName: name,
			State: portal.DisputeReceived, ReceivedAt: now, DueAt: portal.DisputeDue(now, false)}
		if err := tx.QueryRowContext(ctx, `INSERT INTO disputes (subject_id, reason, service_code, service_name, explanation, state, received_at, due_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
			subjectID, d.Reason, d.ServiceCode, d.ServiceName, []byte{}, d.State, ms(d.ReceivedAt), ms(d.DueAt)).Scan(&d.ID); err != nil {
			return fmt.Errorf("store: open dispute: %w", err)
		}
		sealed, err := s.sealDisputeText(n.Explanation, disputeExplanationPlace(subjectID, d.ID))
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE disputes SET explanation = $1 WHERE id = $2`, sealed, d.ID); err != nil {
			return fmt.Errorf("store: open dispute: %w", err)
		}
		if err := linkDisputeFiles(ctx, tx, d.ID, nil, stored); err != nil {
			return err
		}
		if err := s.recordDispute(ctx, tx, d, "dispute.opened", portal.WebhookDisputeOpened,
			fmt.Sprintf("%s, %s, %d files, due %s", d.Reason, englishMessages.disputedPart(d), len(stored), englishMessages.noticeDate(d.DueAt))); err != nil {
			return err
		}
		_, err = s.notifyApplicant(ctx, tx, subjectID, func(m *messageTexts) portal.Notice { return m.disputeReceivedNotice(company, d) })
		return err
	})
	if err != nil {
		return nil, errors.Join(err, dropDisputeFiles(ctx, s.files, stored))
	}
	s.publishScreening(ctx, subjectID, portal.ScreeningChangedDispute)
	return s.findDispute(ctx, s.db, subjectID, 0, d.ID)
}

// AddDisputeInformation adds the applicant's message and files; the first
// addition within the period extends the due date to 45 days.
func (s *DisputeService) AddDisputeInformation(ctx context.Context, subjectID, disputeID int64, text string, next portal.Uploads) (*portal.Dispute, error) {
	d, err := s.findDispute(ctx, s.db, subjectID, 0, disputeID)
	if err != nil {
		return nil, err
	}
	if !d.Open() {
		return nil, portal.ErrDisputeResolved
	}
	// Whether files come is known only once they are read: text alone is
	// checked first, so an empty message with no file stores nothing.
	if strings.TrimSpace(text) != "" {
		if text, err = portal.DisputeMessageText(text, false); err != nil {
			return nil, err
		}
	}
	stored, err := storeDisputeFiles(ctx, s.files, subjectID, next)
	if err != nil {
		return nil, err
	}
	err = s.tx(ctx, func(tx *sql.Tx) error {
		if text, err = portal.DisputeMessageText(text, len(stored) > 0); err != nil {
			return err
		}
		d, err := s.findDispute(ctx, tx, subjectID, 0, disputeID)
		if err != nil {
			return err
		}
		if !d.Open() {
			return portal.ErrDisputeResolved
		}
		detail := fmt.Sprintf("information added, %d files", len(stored))
		if now := s.now(); d.ExtendsDeadline(now) {
			d.Extended, d.DueAt = true, portal.DisputeDue(d.ReceivedAt, true)
			if _, err := tx.ExecContext(ctx, `UPDATE disputes SET extended = TRUE, due_at = $1 WHERE id = $2`, ms(d.DueAt), d.ID); err != nil {
				return fmt.Errorf("store: dispute information: %w", err)
			}
			detail += ", due date extended to " + englishMessages.noticeDate(d.DueAt)
		}
		if err := s.addDisputeMessage(ctx, tx, d.ID, portal.DisputeByApplicant, text, stored); err != nil {
			return err
		}
		return s.recordDispute(ctx, tx, d, "dispute.information", portal.WebhookDisputeUpdated, detail)
	})
	if err != nil {
		return nil, errors.Join(err, dropDisputeFiles(ctx, s.files, stored))
	}
	s.publishScreening(ctx, subjectID, portal.ScreeningChangedDispute)
	return s.findDispute(ctx, s.db, subjectID, 0, disputeID)
}

// OpenDisputeFile opens a file of one of the applicant's disputes.
func (s *DisputeService) OpenDisputeFile(ctx context.Context, subjectID, disputeID, fileID int64) (*portal.File, io.ReadCloser, error) {
	return s.openDisputeFile(ctx, s.files, subjectID, 0, disputeID, fileID)
}

func (s *conn) openDisputeFile(ctx context.Context, files *FileStore, subjectID, companyID, disputeID, fileID int64) (*portal.File, io.ReadCloser, error) {
	var owner int64
	err := s.db.QueryRowContext(ctx, `SELECT d.subject_id FROM dispute_files df JOIN disputes d ON d.id = df.dispute_id JOIN subjects s ON s.id = d.subject_id
		WHERE df.dispute_id = $1 AND df.file_id = $2 AND (CAST($3 AS BIGINT) = 0 OR d.subject_id = $3) AND (CAST($4 AS BIGINT) = 0 OR s.company_id = $4)
		LIMIT 1`,
		disputeID, fileID, subjectID, companyID).Scan(&owner)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil, portal.Errorf(portal.ENOTFOUND, "File not found.")
	} else if err != nil {
		return nil, nil, fmt.Errorf("store: dispute file: %w", err)
	}
	f, rc, err := files.Get(ctx, fileID)
	if portal.ErrorCode(err) == portal.ENOTFOUND {
		return nil, nil, portal.Errorf(portal.ENOTFOUND, "File not found.")
	}
	if err != nil {
		return nil, nil, err
	}
	// Recorded as the download starts, like a document's: evidence may be
	// a bank statement or a court record. The file's name is not written.
	if err := s.audit(ctx, s.db, owner, "dispute.file-downloaded", fmt.Sprintf("dispute %d, file %d", disputeID, fileID)); err != nil {
		rc.Close()
		return nil, nil, err
	}
	return f, rc, nil
}

// operatorDispute reads a dispute in the caller's company with whose it is.
func (s *OperatorDisputeService) operatorDispute(ctx context.Context, q queryer, companyID, disputeID int64) (*portal.OperatorDispute, error) {
	d, err := s.db.findDispute(ctx, q, 0, companyID, disputeID)
	if err != nil {
		return nil, err
	}
	sub, err := scanSubject(q.QueryRowContext(ctx, `SELECT `+subjectColumns+` FROM subjects WHERE id = $1`, d.SubjectID))
	if err != nil {
		return nil, notFound(err, "Applicant")
	}
	return &portal.OperatorDispute{Dispute: *d, Applicant: *sub}, nil
}

// FindDisputes lists disputes, the soonest due first.
func (s *OperatorDisputeService) FindDisputes(ctx context.Context, f portal.DisputeFilter) ([]portal.OperatorDispute, error) {
	rows, err := s.db.db.QueryContext(ctx, `SELECT `+disputeColumns+` FROM disputes d JOIN subjects s ON s.id = d.subject_id
		WHERE (CAST($1 AS BIGINT) = 0 OR s.company_id = $1) AND (CAST($2 AS TEXT) = '' OR d.state = $2) ORDER BY d.due_at, d.id`, f.CompanyID, f.State)
	if err != nil {
		return nil, fmt.Errorf("store: disputes: %w", err)
	}
	defer rows.Close()
	out := []portal.OperatorDispute{}
	for rows.Next() {
		d, err := s.db.scanDispute(rows)
		if err != nil {
			return nil, fmt.Errorf("store: disputes: %w", err)
		}
		out = append(out, portal.OperatorDispute{Dispute: *d})
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: disputes: %w", err)
	}
	rows.Close()
	subjects := map[int64]*portal.Subject{}
	for i := range out {
		id := out[i].SubjectID
		if subjects[id] == nil {
			if subjects[id], err = scanSubject(s.db.db.QueryRowContext(ctx, `SELECT `+subjectColumns+` FROM subjects WHERE id = $1`, id)); err != nil {
				return nil, fmt.Errorf("store: disputes: %w", err)
			}
		}
		out[i].Applicant = *subjects[id]
	}
	return out, nil
}

// FindDispute reads one dispute of the caller's company.
func (s *OperatorDisputeService) FindDispute(ctx context.Context, companyID, disputeID int64) (*portal.OperatorDispute, error) {
	return s.operatorDispute(ctx, s.db.db, companyID, disputeID)
}

// AnswerDispute adds the operator's note, moves a received dispute to
// reinvestigating and tells the applicant.
func (s *OperatorDisputeService) AnswerDispute(ctx context.Context, companyID, disputeID int64, message string) (*portal.OperatorDispute, error) {
	text, err := portal.DisputeMessageText(message, false)
	if err != nil {
		return nil, err
	}
	return s.change(ctx, companyID, disputeID, func(tx *sql.Tx, d *portal.Dispute, company string) error {
		d.State = portal.DisputeReinvestigating
		if _, err := tx.ExecContext(ctx, `UPDATE disputes SET state = $1 WHERE id = $2`, d.State, d.ID); err != nil {
			return fmt.Errorf("store: answer dispute: %w", err)
		}
		if err := s.db.addDisputeMessage(ctx, tx, d.ID, portal.DisputeByOperator, text, nil); err != nil {
			return err
		}
		if err := s.db.recordDispute(ctx, tx, d, "dispute.answered", portal.WebhookDisputeUpdated, "answered, reinvestigating"); err != nil {
			return err
		}
		_, err := s.db.notifyApplicant(ctx, tx, d.SubjectID, func(m *messageTexts) portal.Notice { return m.disputeAnswerNotice(company, d) })
		return err
	})
}

// ResolveDispute closes the dispute with its outcome and the operator's
// explanation, and tells the applicant.
func (s *OperatorDisputeService) ResolveDispute(ctx context.Context, companyID, disputeID int64, outcome, message string) (*portal.OperatorDispute, error) {
	text, err := portal.DisputeResolution(outcome, message)
	if err != nil {
		return nil, err
	}
	return s.change(ctx, companyID, disputeID, func(tx *sql.Tx, d *portal.Dispute, company string) error {
		now := s.db.now()
		d.State, d.Outcome, d.Resolution, d.ResolvedAt = portal.DisputeResolved, outcome, text, &now
		sealed, err := s.db.sealDisputeText(text, disputeResolutionPlace(d.SubjectID, d.ID))
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE disputes SET state = $1, outcome = $2, resolution = $3, resolved_at = $4 WHERE id = $5`,
			d.State, d.Outcome, sealed, ms(now), d.ID); err != nil {
			return fmt.Errorf("store: resolve dispute: %w", err)
		}
		if err := s.db.recordDispute(ctx, tx, d, "dispute.resolved", portal.WebhookDisputeResolved, "resolved: "+outcome); err != nil {
			return err
		}
		_, err = s.db.notifyApplicant(ctx, tx, d.SubjectID, func(m *messageTexts) portal.Notice { return m.disputeResolvedNotice(company, d, outcome) })
		return err
	})
}

// change runs an operator's change of an open dispute in one transaction
// and tells the applicant's open pages after the commit.
func (s *OperatorDisputeService) change(ctx context.Context, companyID, disputeID int64, fn func(*sql.Tx, *portal.Dispute, string) error) (*portal.OperatorDispute, error) {
	var subjectID int64
	err := s.db.tx(ctx, func(tx *sql.Tx) error {
		d, err := s.db.findDispute(ctx, tx, 0, companyID, disputeID)
		if err != nil {
			return err
		}
		if !d.Open() {
			return portal.ErrDisputeResolved
		}
		_, _, company, err := disputeSubject(ctx, tx, d.SubjectID)
		if err != nil {
			return err
		}
		subjectID = d.SubjectID
		return fn(tx, d, company)
	})
	if err != nil {
		return nil, err
	}
	s.db.publishScreening(ctx, subjectID, portal.ScreeningChangedDispute)
	return s.operatorDispute(ctx, s.db.db, companyID, disputeID)
}

// OpenDisputeAttachment opens a file of a dispute of the caller's company.
func (s *OperatorDisputeService) OpenDisputeAttachment(ctx context.Context, companyID, disputeID, fileID int64) (*portal.File, io.ReadCloser, error) {
	return s.db.openDisputeFile(ctx, NewFileStore(s.db), 0, companyID, disputeID, fileID)
}
