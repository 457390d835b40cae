package store

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"applicantportal/internal/legaltext"
	"applicantportal/internal/portal"
)

// SaveLegalDocument creates a company's document, or updates the one with
// the same code (the document type when no code is given): its title,
// visibility, regions and editable flag change in place, and a changed text
// becomes a new version. A document in another language than en-US
// (d.Language) is a translation of the company's English document of that
// code, which must exist (ENOTFOUND otherwise): only its title and text are
// saved, versioned apart from the English. d.ID and d.Version are set on
// return; changed reports whether a version was added.
func (s *DB) SaveLegalDocument(ctx context.Context, d *portal.LegalDocument) (changed bool, err error) {
	if d.Type.Code == "" {
		d.Type.Code = d.Type.DocumentType
	}
	if d.Language == "" {
		d.Language = portal.LocaleEnUS
	}
	if err := d.Validate(); err != nil {
		return false, err
	}
	if d.Language != portal.LocaleEnUS {
		return s.saveLegalTranslation(ctx, d)
	}
	err = s.tx(ctx, func(tx *sql.Tx) error {
		// Titles, versions and regions are in the catalog cache.
		if err := s.catalogChanged(ctx, tx); err != nil {
			return err
		}
		now := ms(s.now())
		var current sql.NullString
		err := tx.QueryRowContext(ctx, `
			SELECT d.id, v.version, v.content FROM legal_documents d
			LEFT JOIN legal_document_versions v ON v.document_id = d.id
				AND v.version = (SELECT MAX(version) FROM legal_document_versions WHERE document_id = d.id)
			WHERE d.company_id = $1 AND d.code = $2`, d.CompanyID, d.Type.Code).
			Scan(&d.ID, &sql.NullInt64{}, &current)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			err = tx.QueryRowContext(ctx, `
				INSERT INTO legal_documents (company_id, document_type, visibility, code, editable, title, created_at, updated_at)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $7) RETURNING id`,
				d.CompanyID, d.Type.DocumentType, d.Type.Visibility, d.Type.Code, d.Type.Editable, d.Title, now).Scan(&d.ID)
			if err != nil {
				return fmt.Errorf("store: create legal document: %w", err)
			}
		case err != nil:
			return fmt.Errorf("store: find legal document: %w", err)
		default:
			if _, err := tx.ExecContext(ctx, `UPDATE legal_documents SET document_type = $1, visibility = $2, editable = $3, title = $4, updated_at = $5 WHERE id = $6`,
				d.Type.DocumentType, d.Type.Visibility, d.Type.Editable, d.Title, now, d.ID); err != nil {
				return fmt.Errorf("store: update legal document: %w", err)
			}
			if _, err := tx.ExecContext(ctx, `DELETE FROM legal_document_regions WHERE document_id = $1`, d.ID); err != nil {
				return fmt.Errorf("store: update legal document regions: %w", err)
			}
		}
		for _, r := range d.Type.Regions {
			if _, err := tx.ExecContext(ctx, `INSERT INTO legal_document_regions (document_id, state_code, county_id) VALUES ($1, $2, $3)`,
				d.ID, strings.ToUpper(strings.TrimSpace(r.StateCode)), r.CountyID); err != nil {
				return fmt.Errorf("store: save legal document region: %w", err)
			}
		}
		changed = !current.Valid || current.String != d.Content
		if !changed {
			if err := tx.QueryRowContext(ctx, `SELECT MAX(version) FROM legal_document_versions WHERE document_id = $1`, d.ID).Scan(&d.Version); err != nil {
				return err
			}
			return s.auditLegalDocument(ctx, tx, d, false)
		}
		err = tx.QueryRowContext(ctx, `
			INSERT INTO legal_document_versions (document_id, version, content, created_at)
			VALUES ($1, (SELECT COALESCE(MAX(version), 0) + 1 FROM legal_document_versions WHERE document_id = $1), $2, $3)
			RETURNING version`, d.ID, d.Content, now).Scan(&d.Version)
		if err != nil {
			return fmt.Errorf("store: save legal document version: %w", err)
		}
		return s.auditLegalDocument(ctx, tx, d, true)
	})
	d.Type.ID = d.ID
	return changed, err
}

// auditLegalDocument records a load of a legal document (portal documents
// load), with its ids and version only: changed says its text became a
// new version, otherwise only its settings or title were saved.
func (s *DB) auditLegalDocument(ctx context.Context, tx *sql.Tx, d *portal.LegalDocument, changed bool) error {
	what := "settings saved, text unchanged"
	if changed {
		what = "a new text"
	}
	return s.auditCompany(ctx, tx, d.CompanyID, "legal-document.loaded",
		fmt.Sprintf("document %d (%s), version %d: %s", d.ID, d.Language, d.Version, what))
}

// saveLegalTranslation is SaveLegalDocument of a text in another language
// than en-US: a changed text becomes a new version of that language, a
// changed title alone changes the current version's title in place (as the
// English title does).
func (s *DB) saveLegalTranslation(ctx context.Context, d *portal.LegalDocument) (changed bool, err error) {
	err = s.tx(ctx, func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `SELECT id FROM legal_documents WHERE company_id = $1 AND code = $2`,
			d.CompanyID, d.Type.Code).Scan(&d.ID)
		if errors.Is(err, sql.ErrNoRows) {
			return portal.Errorf(portal.ENOTFOUND, "The company has no document %s in en-US to translate: load the en-US text first.", d.Type.Code)
		} else if err != nil {
			return fmt.Errorf("store: find legal document: %w", err)
		}
		// Titles are in the catalog cache.
		if err := s.catalogChanged(ctx, tx); err != nil {
			return err
		}
		var current sql.NullString
		err = tx.QueryRowContext(ctx, `
			SELECT version, content FROM legal_document_translations WHERE document_id = $1 AND language = $2
			ORDER BY version DESC LIMIT 1`, d.ID, string(d.Language)).Scan(&d.Version, &current)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("store: find legal document translation: %w", err)
		}
		now := ms(s.now())
		if changed = !current.Valid || current.String != d.Content; !changed {
			_, err := tx.ExecContext(ctx, `UPDATE legal_document_translations SET title = $1 WHERE document_id = $2 AND language = $3 AND version = $4`,
				d.Title, d.ID, string(d.Language), d.Version)
			if err != nil {
				return fmt.Errorf("store: update legal document translation: %w", err)
			}
			return s.auditLegalDocument(ctx, tx, d, false)
		}
		d.Version++
		if _, err := tx.ExecContext(ctx, `
			INSERT INTO legal_document_translations (document_id, language, version, title, content, created_at)
			VALUES ($1, $2, $3, $4, $5, $6)`, d.ID, string(d.Language), d.Version, d.Title, d.Content, now); err != nil {
			return fmt.Errorf("store: save legal document translation: %w", err)
		}
		return s.auditLegalDocument(ctx, tx, d, true)
	})
	d.Type.ID = d.ID
	return changed, err
}

// FindCompanyLegalDocuments returns a company's current documents, by id,
// in the language of ctx where a document has a text in it (see
// findLegalDocuments).
func (s *DB) FindCompanyLegalDocuments(ctx context.Context, companyID int64) ([]portal.LegalDocument, error) {
	return findLegalDocuments(ctx, s.db, companyID, true)
}

// findLegalDocuments reads a company's current documents in the language
// of ctx (portal.LocaleOf): a document's text and title in that language
// when it has one, else its English, with Language saying which. Without
// withTexts, Content is left empty: the texts are most of the bytes read,
// and the document list does not show them.
func findLegalDocuments(ctx context.Context, q queryer, companyID int64, withTexts bool) ([]portal.LegalDocument, error) {
	content := `''`
	if withTexts {
		content = `COALESCE(t.content, v.content)`
	}
	rows, err := q.QueryContext(ctx, `
		SELECT d.id, d.document_type, d.visibility, d.code, d.editable,
			COALESCE(t.title, d.title), COALESCE(t.version, v.version), `+content+`, COALESCE(t.language, 'en-US')
		FROM legal_documents d
		JOIN legal_document_versions v ON v.document_id = d.id
			AND v.version = (SELECT MAX(version) FROM legal_document_versions WHERE document_id = d.id)
		LEFT JOIN legal_document_translations t ON t.document_id = d.id AND t.language = $2
			AND t.version = (SELECT MAX(version) FROM legal_document_translations WHERE document_id = d.id AND language = $2)
		WHERE d.company_id = $1 ORDER BY d.id`, companyID, string(portal.LocaleOf(ctx)))
	if err != nil {
		return nil, fmt.Errorf("store: legal documents: %w", err)
	}
	defer rows.Close()
	var docs []portal.LegalDocument
	for rows.Next() {
		d := portal.LegalDocument{CompanyID: companyID}
		if err := rows.Scan(&d.ID, &d.Type.DocumentType, &d.Type.Visibility, &d.Type.Code, &d.Type.Editable,
			&d.Title, &d.Version, &d.Content, &d.Language); err != nil {
			return nil, fmt.Errorf("store: legal documents: %w", err)
		}
		d.Type.ID = d.ID
		d.Type.Regions = []portal.Region{}
		docs = append(docs, d)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: legal documents: %w", err)
	}
	rows.Close()

	err = addLegalDocumentRegions(ctx, q, companyID, func(id int64) *[]portal.Region {
		if i := slices.IndexFunc(docs, func(d portal.LegalDocument) bool { return d.ID == id }); i >= 0 {
			return &docs[i].Type.Regions
		}
		return nil
	})
	return docs, err
}

// legalDocumentList is findLegalDocuments without the texts, from the
// catalog cache when it may (catalogcache.go): the document list and the
// subject view's checklist read it on every request.
func (s *conn) legalDocumentList(ctx context.Context, q queryer, companyID int64) ([]portal.LegalDocument, error) {
	key := legalDocsKey{company: companyID, lang: portal.LocaleOf(ctx)}
	gen, cached := s.catalog.usable(q)
	if cached {
		if docs, ok := s.catalog.legalDocuments(key); ok {
			return docs, nil
		}
	}
	docs, err := findLegalDocuments(ctx, q, companyID, false)
	if err != nil {
		return nil, err
	}
	if cached {
		s.catalog.putLegalDocuments(key, docs, gen)
	}
	return docs, nil
}

// addLegalDocumentRegions appends each region of the company's legal
// documents to the list regionsOf gives for its document (nil: a document
// the caller did not read).
func addLegalDocumentRegions(ctx context.Context, q queryer, companyID int64, regionsOf func(documentID int64) *[]portal.Region) error {
	rows, err := q.QueryContext(ctx, `
		SELECT r.document_id, r.state_code, r.county_id FROM legal_document_regions r
		JOIN legal_documents d ON d.id = r.document_id
		WHERE d.company_id = $1 ORDER BY r.id`, companyID)
	if err != nil {
		return fmt.Errorf("store: legal document regions: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var r portal.Region
		if err := rows.Scan(&id, &r.StateCode, &r.CountyID); err != nil {
			return fmt.Errorf("store: legal document regions: %w", err)
		}
		if regions := regionsOf(id); regions != nil {
			*regions = append(*regions, r)
		}
	}
	return rows.Err()
}

// LegalService implements portal.LegalService: the legal file of a
// subject, signing and deleting signatures.
type LegalService struct{ *conn }

var _ portal.LegalService = (*LegalService)(nil)

// Legal hands out the legal-documents service.
func (db *DB) Legal() *LegalService { return &LegalService{db.conn} }

// FindLegalDocuments implements portal.LegalService.
func (s *LegalService) FindLegalDocuments(ctx context.Context, subjectID int64) (*portal.LegalFile, error) {
	return s.legalFile(ctx, s.db, subjectID)
}

func (s *conn) legalFile(ctx context.Context, q queryer, subjectID int64) (*portal.LegalFile, error) {
	return s.readLegalFile(ctx, q, subjectID, true)
}

// FindLegalDocumentList implements portal.LegalService: the file without
// the texts of the documents and signatures, nor the subject, company and
// location (GET /api/v2/user/document shows none of them).
func (s *LegalService) FindLegalDocumentList(ctx context.Context, subjectID int64) (*portal.LegalFile, error) {
	return s.readLegalFile(ctx, s.db, subjectID, false)
}

// readLegalFile reads the subject's legal file; without full, only what
// the document list shows (see FindLegalDocumentList).
func (s *conn) readLegalFile(ctx context.Context, q queryer, subjectID int64, full bool) (*portal.LegalFile, error) {
	f := &portal.LegalFile{Signatures: map[int64]*portal.Signature{}, Instances: map[portal.SignatureKey]*portal.Signature{}}
	var companyID int64
	if full {
		sub, err := scanSubject(q.QueryRowContext(ctx, `SELECT `+subjectColumns+` FROM subjects WHERE id = $1`, subjectID))
		if err != nil {
			return nil, notFound(err, "Subject")
		}
		f.Subject, companyID = sub, sub.CompanyID
		if f.Company, err = s.findCompany(ctx, q, sub.CompanyID); err != nil {
			return nil, err
		}
		if f.Location, err = findLocation(ctx, q, subjectID); err != nil {
			return nil, err
		}
	}
	var err error
	if full {
		if f.Documents, err = findLegalDocuments(ctx, q, companyID, true); err != nil {
			return nil, err
		}
		if f.DOTEntries, err = s.findDOTEntries(ctx, q, subjectID); err != nil {
			return nil, err
		}
	} else {
		// The company and the employment record in one statement.
		var employment []byte
		err := q.QueryRowContext(ctx, `SELECT company_id,
			(SELECT sealed FROM subject_records WHERE subject_id = $1 AND kind = $2) FROM subjects WHERE id = $1`,
			subjectID, portal.EmploymentRecordKind).Scan(&companyID, &employment)
		if err != nil {
			return nil, notFound(err, "Subject")
		}
		if f.Documents, err = s.legalDocumentList(ctx, q, companyID); err != nil {
			return nil, err
		}
		if f.DOTEntries, err = s.openDOTEntries(subjectID, employment); err != nil {
			return nil, err
		}
	}
	content := `''`
	if full {
		content = `content`
	}
	rows, err := q.QueryContext(ctx, `
		SELECT id, document_id, document_version, `+content+`, content_sha256, signature_png, signer_name, user_ip,
			fields, sealed_fields, outcome, created_at, instance, language
		FROM legal_signatures WHERE subject_id = $1 ORDER BY id`, subjectID)
	if err != nil {
		return nil, fmt.Errorf("store: signatures: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		sig := &portal.Signature{SubjectID: subjectID}
		var fields string
		var sealed []byte
		var created int64
		if err := rows.Scan(&sig.ID, &sig.DocumentID, &sig.DocumentVersion, &sig.Content, &sig.ContentSHA256,
			&sig.SignatureData, &sig.SignerName, &sig.SignatureUserIP, &fields, &sealed, &sig.Outcome, &created, &sig.Instance, &sig.Language); err != nil {
			return nil, fmt.Errorf("store: signatures: %w", err)
		}
		if err := json.Unmarshal([]byte(fields), &sig.Fields); err != nil {
			return nil, fmt.Errorf("store: signature %d fields: %w", sig.ID, err)
		}
		if err := s.openSignatureFields(subjectID, sig.DocumentID, sig.Instance, sealed, &sig.Fields); err != nil {
			return nil, err
		}
		if sig.SignatureData, err = s.openSignatureImage(subjectID, sig.DocumentID, sig.Instance, sig.SignatureData); err != nil {
			return nil, err
		}
		sig.CreatedAt = fromMS(created)
		if sig.Instance == "" {
			f.Signatures[sig.DocumentID] = sig
		} else {
			f.Instances[portal.SignatureKey{DocumentID: sig.DocumentID, Instance: sig.Instance}] = sig
		}
	}
	return f, rows.Err()
}

// SignLegalDocuments implements portal.LegalService. The image work of the
// check (LegalFile.Sign) runs before the writing transaction, bounded by
// call.Bounded, so no transaction (on SQLite: the database's one write
// lock) waits on it; SignLegalStep re-checks the step against the stored
// state inside the transaction.
func (s *LegalService) SignLegalDocuments(ctx context.Context, subjectID int64, call portal.SigningCall) (*portal.LegalFile, error) {
	file, err := s.legalFile(ctx, s.db, subjectID)
	if err != nil {
		return nil, err
	}
	var ssn string
	if p, err := findPersonalInfo(ctx, s.db, s.cfg.Sealer, subjectID); err != nil {
		return nil, err
	} else if p != nil && !p.NoSSN {
		ssn = p.SSN
	}
	bounded := call.Bounded
	if bounded == nil {
		bounded = func(work func() error) error { return work() }
	}
	var sigs []portal.Signature
	err = bounded(func() (err error) {
		sigs, err = file.Sign(portal.Signing{
			DocumentID: call.DocumentID, Instance: call.Request.Instance, Request: call.Request,
			ContentSHA256: call.ContentSHA256, IP: call.IP, SSN: ssn,
			Shown: func(d portal.LegalDocument) (string, string) { return legaltext.Shown(file, d, call.Request.Instance) },
		})
		return err
	})
	if err != nil {
		return nil, err
	}
	if err := s.SignLegalStep(ctx, subjectID, sigs); err != nil {
		return nil, err
	}
	return s.legalFile(ctx, s.db, subjectID)
}

// SignLegalStep stores, in one transaction, one signature per document the
// step still needs (LegalFile.SignableStep), re-checking the rules against
// the stored state: ECONFLICT when a document is already signed, its
// version changed, setup is complete or the documents are not exactly those
// the step needs. A paper-forms outcome holds the subject's orders and
// e-mails the applicant how to get and return the forms. Demo data and
// tests call it with signatures made by LegalFile.Sign.
func (s *LegalService) SignLegalStep(ctx context.Context, subjectID int64, sigs []portal.Signature) error {
	if len(sigs) == 0 {
		return errors.New("store: sign legal step: no signatures")
	}
	return s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := s.lockSubject(ctx, tx, subjectID); err != nil {
			return err
		}
		f, err := s.legalFile(ctx, tx, subjectID)
		if err != nil {
			return err
		}
		instance := sigs[0].Instance
		todo, err := f.Signable(sigs[0].DocumentID, instance)
		if err != nil {
			return err
		}
		if len(todo) != len(sigs) {
			return portal.ErrContentChanged
		}
		// A per-employer release names its employer in the signed text: an
		// entry renamed (in another tab) since the text was read would sign
		// one employer's release under another's name.
		if instance != "" {
			if entry, ok := f.DOTEntry(instance); !ok || entry.EmployerName != sigs[0].Fields.EmployerName {
				return portal.ErrContentChanged
			}
		}
		if err := s.checkSignedLastFour(ctx, tx, subjectID, sigs); err != nil {
			return err
		}
		now := s.now()
		paperForms := false
		for _, sig := range sigs {
			i := slices.IndexFunc(todo, func(d portal.LegalDocument) bool { return d.ID == sig.DocumentID })
			// The version is one of the text in the language signed: the
			// same number in another language is another text.
			sig.Language = cmp.Or(sig.Language, portal.LocaleEnUS)
			if i < 0 || todo[i].Version != sig.DocumentVersion || todo[i].Language != sig.Language || sig.Instance != instance {
				return portal.ErrContentChanged
			}
			plainFields, sealed, err := s.splitSignatureFields(subjectID, sig.DocumentID, sig.Instance, sig.Fields)
			if err != nil {
				return err
			}
			fields, err := json.Marshal(plainFields)
			if err != nil {
				return fmt.Errorf("store: signature fields: %w", err)
			}
			var sealedArg any // NULL when the signature holds no PII
			if sealed != nil {
				sealedArg = sealed
			}
			var png any // NULL when the signature has no image
			if img, err := s.sealSignatureImage(subjectID, sig.DocumentID, sig.Instance, sig.SignatureData); err != nil {
				return err
			} else if img != nil {
				png = img
			}
			outcome := sig.Outcome
			if outcome == "" {
				outcome = portal.SignOutcomeSigned
			}
			paperForms = paperForms || outcome == portal.SignOutcomePaperForms
			_, err = tx.ExecContext(ctx, `
				INSERT INTO legal_signatures (document_id, subject_id, document_version, content, content_sha256,
					signature_png, signer_name, user_ip, fields, sealed_fields, outcome, created_at, instance, language)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
				sig.DocumentID, subjectID, sig.DocumentVersion, sig.Content, sig.ContentSHA256, png,
				sig.SignerName, sig.SignatureUserIP, string(fields), sealedArg, string(outcome), ms(now), sig.Instance, string(sig.Language))
			if s.dialect.isUnique(err) {
				return portal.Errorf(portal.ECONFLICT, "You have already signed this document.")
			} else if err != nil {
				return fmt.Errorf("store: save signature: %w", err)
			}
			detail := fmt.Sprintf("document %d version %d (%s): %s", sig.DocumentID, sig.DocumentVersion, sig.Language, outcome)
			if sig.Instance != "" {
				detail += ", release " + sig.Instance
			}
			if err := s.audit(ctx, tx, subjectID, "legal.signed", detail); err != nil {
				return err
			}
		}
		if !paperForms {
			return nil
		}
		if err := setOrderHold(ctx, tx, subjectID, portal.HoldPaperForms, now); err != nil {
			return err
		}
		subject, body := messagesIn(f.Subject.Locale).paperFormsMail(f.Subject, f.Company)
		return s.enqueueMail(ctx, tx, now, f.Subject.Email, subject, body, 0)
	})
}

// checkSignedLastFour runs the SSN check (spec section 5) again inside the
// signing transaction, under the subject's lock: LegalFile.Sign checked the
// typed last four digits against the SSN read before it, and a personal
// information save may have stored another SSN since (its own check saw no
// DOT release signed yet). Without this the two saves could each pass and
// leave a signature that contradicts the SSN on file.
func (s *LegalService) checkSignedLastFour(ctx context.Context, tx *sql.Tx, subjectID int64, sigs []portal.Signature) error {
	if !slices.ContainsFunc(sigs, func(sig portal.Signature) bool { return sig.Fields.LastFourSSN != "" }) {
		return nil // nothing to compare: no need to open the personal information
	}
	p, err := findPersonalInfo(ctx, tx, s.cfg.Sealer, subjectID)
	if err != nil || p == nil || p.NoSSN || p.SSN == "" {
		return err
	}
	for _, sig := range sigs {
		if sig.Fields.LastFourSSN == "" {
			continue
		}
		if err := portal.CheckLastFourSSN(sig.Fields.LastFourSSN, p.SSN); err != nil {
			return err
		}
	}
	return nil
}

// DeleteSignature implements portal.LegalService. It deletes a setup
// signature only: a per-employer DOT release, signed after setup, stays as
// the audit record it is.
func (s *LegalService) DeleteSignature(ctx context.Context, subjectID, documentID int64) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		status, err := s.lockSubject(ctx, tx, subjectID)
		if err != nil {
			return err
		}
		var outcome string
		err = tx.QueryRowContext(ctx, `DELETE FROM legal_signatures WHERE subject_id = $1 AND document_id = $2 AND instance = '' RETURNING outcome`,
			subjectID, documentID).Scan(&outcome)
		if err != nil {
			return notFound(err, "Signature")
		}
		if status != portal.StatusNew {
			return portal.ErrSetupComplete // rolls the delete back
		}
		if outcome == string(portal.SignOutcomePaperForms) {
			if err := setOrderHold(ctx, tx, subjectID, "", s.now()); err != nil {
				return err
			}
		}
		return s.audit(ctx, tx, subjectID, "legal.signature-deleted", fmt.Sprintf("document %d (%s)", documentID, outcome))
	})
}

// setOrderHold sets (or, with an empty reason, lifts) the hold of the
// subject's orders.
func setOrderHold(ctx context.Context, q queryer, subjectID int64, reason string, now time.Time) error {
	var v any
	if reason != "" {
		v = reason
	}
	if _, err := q.ExecContext(ctx, `UPDATE orders SET hold_reason = $1, updated_at = $2
		WHERE profile_id IN (SELECT id FROM profiles WHERE subject_id = $3)`, v, ms(now), subjectID); err != nil {
		return fmt.Errorf("store: order hold: %w", err)
	}
	return nil
}

// findDOTEntries reads the DOT-flagged entries of the subject's employment
// history (none before the applicant saved it, or with no data available).
func (s *conn) findDOTEntries(ctx context.Context, q queryer, subjectID int64) ([]portal.DOTEntry, error) {
	sealed, err := findSealedRecord(ctx, q, subjectID, portal.EmploymentRecordKind)
	if err != nil {
		return nil, err
	}
	return s.openDOTEntries(subjectID, sealed)
}

// openDOTEntries is findDOTEntries of the employment record as read from
// subject_records.sealed (nil: never saved).
func (s *conn) openDOTEntries(subjectID int64, sealed []byte) ([]portal.DOTEntry, error) {
	if sealed == nil {
		return nil, nil
	}
	var rec struct {
		NoDataAvailable bool             `json:"noDataAvailable"`
		Entries         []map[string]any `json:"entries"`
	}
	if err := openRecord(s.cfg.Sealer, subjectID, portal.EmploymentRecordKind, sealed, &rec); err != nil || rec.NoDataAvailable {
		return nil, err
	}
	return portal.DOTEntries(rec.Entries), nil
}

// DOTReleases lists the subject's per-employer DOT releases: one per
// DOT-flagged entry of their employment history, signed or not (GET
// /api/v2/user/subject, dotReleases).
func (s *conn) DOTReleases(ctx context.Context, subjectID int64) ([]portal.DOTRelease, error) {
	return s.dotReleases(ctx, s.db, subjectID)
}

// dotReleases is DOTReleases inside a caller's transaction.
func (s *conn) dotReleases(ctx context.Context, q queryer, subjectID int64) ([]portal.DOTRelease, error) {
	f, err := s.legalFile(ctx, q, subjectID)
	if err != nil {
		return nil, err
	}
	return f.DOTReleases(), nil
}
