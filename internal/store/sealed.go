package store

import (
	"context"
	"encoding/json"
	"fmt"

	"applicantportal/internal/portal"
	"applicantportal/internal/seal"
)

// Every sealed value is bound to the place it is stored in (seal.SealFor):
// the table, the column and the owning row. A value copied into another
// applicant's row, or into another column, does not open. These name the
// places.

func personalInfoPlace(subjectID int64) string {
	return fmt.Sprintf("personal_info.sealed/%d", subjectID)
}

// A signature row is the subject's one signature of a document instance;
// the setup wizard's instance "" keeps the place it had before instances.
func signatureFieldsPlace(subjectID, documentID int64, instance string) string {
	if instance == "" {
		return fmt.Sprintf("legal_signatures.sealed_fields/%d/%d", subjectID, documentID)
	}
	return fmt.Sprintf("legal_signatures.sealed_fields/%d/%d/%s", subjectID, documentID, instance)
}

// The drawn signature sits beside the signer's name and address: it is
// sealed like the identifiers typed with it.
func signatureImagePlace(subjectID, documentID int64, instance string) string {
	return fmt.Sprintf("legal_signatures.signature_png/%d/%d/%s", subjectID, documentID, instance)
}

const keyCheckPlace = "meta.value/" + keyCheckName

// sealSignatureImage seals a signature's image for its row (nil when the
// signature has none, as a paper-forms outcome).
func (s *conn) sealSignatureImage(subjectID, documentID int64, instance string, img []byte) ([]byte, error) {
	if len(img) == 0 {
		return nil, nil
	}
	if s.cfg.Sealer == nil {
		return nil, errNoDataKey
	}
	return s.cfg.Sealer.SealFor(img, signatureImagePlace(subjectID, documentID, instance))
}

// openSignatureImage opens what sealSignatureImage sealed.
func (s *conn) openSignatureImage(subjectID, documentID int64, instance string, sealed []byte) ([]byte, error) {
	if len(sealed) == 0 {
		return nil, nil
	}
	if s.cfg.Sealer == nil {
		return nil, errNoDataKey
	}
	img, err := s.cfg.Sealer.OpenFor(sealed, signatureImagePlace(subjectID, documentID, instance))
	if err != nil {
		return nil, fmt.Errorf("store: open the image of subject %d's signature of document %d: %w", subjectID, documentID, err)
	}
	return img, nil
}

// signaturePII are the values typed when signing that identify the
// applicant. They are stored sealed in legal_signatures.sealed_fields; the
// other fields stay plain JSON in legal_signatures.fields.
type signaturePII struct {
	LastFourSSN          string `json:"lastFourSSN,omitempty"`
	IdentificationNumber string `json:"identificationNumber,omitempty"`
	// The answer about drug and alcohol tests of a DOT release is health
	// and conduct data: sealed like the identifiers.
	TestedPositiveOrRefused string `json:"testedPositiveOrRefused,omitempty"`
}

// splitSignatureFields returns the fields without their PII and the PII
// sealed for the signature's row (nil when there is none).
func (s *conn) splitSignatureFields(subjectID, documentID int64, instance string, f portal.SignatureFields) (portal.SignatureFields, []byte, error) {
	pii := signaturePII{LastFourSSN: f.LastFourSSN, IdentificationNumber: f.IdentificationNumber, TestedPositiveOrRefused: f.TestedPositiveOrRefused}
	f.LastFourSSN, f.IdentificationNumber, f.TestedPositiveOrRefused = "", "", ""
	if pii == (signaturePII{}) {
		return f, nil, nil
	}
	if s.cfg.Sealer == nil {
		return f, nil, errNoDataKey
	}
	plain, err := json.Marshal(pii)
	if err != nil {
		return f, nil, fmt.Errorf("store: encode signature fields: %w", err)
	}
	sealed, err := s.cfg.Sealer.SealFor(plain, signatureFieldsPlace(subjectID, documentID, instance))
	return f, sealed, err
}

// openSignatureFields puts the sealed PII of a signature back into its
// fields.
func (s *conn) openSignatureFields(subjectID, documentID int64, instance string, sealed []byte, f *portal.SignatureFields) error {
	if len(sealed) == 0 {
		return nil
	}
	if s.cfg.Sealer == nil {
		return errNoDataKey
	}
	plain, err := s.cfg.Sealer.OpenFor(sealed, signatureFieldsPlace(subjectID, documentID, instance))
	if err != nil {
		// Altered, another key, or copied from another row: an internal
		// error, logged, that names no value.
		return fmt.Errorf("store: open the sealed fields of subject %d's signature of document %d: %w", subjectID, documentID, err)
	}
	var pii signaturePII
	if err := json.Unmarshal(plain, &pii); err != nil {
		return fmt.Errorf("store: decode the sealed fields of subject %d's signature of document %d: %w", subjectID, documentID, err)
	}
	f.LastFourSSN, f.IdentificationNumber, f.TestedPositiveOrRefused = pii.LastFourSSN, pii.IdentificationNumber, pii.TestedPositiveOrRefused
	return nil
}

// sealedRowsDone is the meta row recording that sealRows converted the
// database; later starts skip the scan.
const sealedRowsDone = "sealed_rows_bound"

// sealRows converts what earlier versions stored: personal information
// sealed unbound is resealed bound to its row, and the PII of signatures
// kept in plain JSON is moved into sealed_fields. It runs once, in one
// transaction that instances starting together take one at a time, and
// converts only values still in the old form, so running it again changes
// nothing.
func (s *DB) sealRows(ctx context.Context) error {
	sealer := s.cfg.Sealer
	return s.Atomically(ctx, "seal-rows", func(tx *DB) error {
		var done int
		if err := tx.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM meta WHERE name = $1`, sealedRowsDone).Scan(&done); err != nil {
			return fmt.Errorf("store: seal rows: %w", err)
		}
		if done > 0 {
			return nil
		}

		type personal struct {
			subjectID int64
			sealed    []byte
		}
		var people []personal
		rows, err := tx.db.QueryContext(ctx, `SELECT subject_id, sealed FROM personal_info`)
		if err != nil {
			return fmt.Errorf("store: seal rows: %w", err)
		}
		for rows.Next() {
			var p personal
			if err := rows.Scan(&p.subjectID, &p.sealed); err != nil {
				rows.Close()
				return fmt.Errorf("store: seal rows: %w", err)
			}
			if !seal.IsBound(p.sealed) {
				people = append(people, p)
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("store: seal rows: %w", err)
		}
		resealed := 0
		for _, p := range people {
			plain, err := sealer.Open(p.sealed)
			if err != nil {
				// The key check passed, so the value was altered. One
				// such row must not keep the portal from starting; it
				// stays as it is and fails to open when read.
				s.cfg.Logger.Error("personal information that does not open was left as it is", "subject", p.subjectID, "err", err)
				continue
			}
			bound, err := sealer.SealFor(plain, personalInfoPlace(p.subjectID))
			if err != nil {
				return err
			}
			if _, err := tx.db.ExecContext(ctx, `UPDATE personal_info SET sealed = $1 WHERE subject_id = $2`, bound, p.subjectID); err != nil {
				return fmt.Errorf("store: seal rows: %w", err)
			}
			resealed++
		}

		type signature struct {
			id, subjectID, documentID int64
			fields                    string
		}
		var sigs []signature
		rows, err = tx.db.QueryContext(ctx, `SELECT id, subject_id, document_id, fields FROM legal_signatures
			WHERE sealed_fields IS NULL AND (fields LIKE '%lastFourSSN%' OR fields LIKE '%identificationNumber%')`)
		if err != nil {
			return fmt.Errorf("store: seal rows: %w", err)
		}
		for rows.Next() {
			var sig signature
			if err := rows.Scan(&sig.id, &sig.subjectID, &sig.documentID, &sig.fields); err != nil {
				rows.Close()
				return fmt.Errorf("store: seal rows: %w", err)
			}
			sigs = append(sigs, sig)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("store: seal rows: %w", err)
		}
		for _, sig := range sigs {
			var f portal.SignatureFields
			if err := json.Unmarshal([]byte(sig.fields), &f); err != nil {
				return fmt.Errorf("store: seal rows: signature %d fields: %w", sig.id, err)
			}
			// Rows from before instances: every one is a setup signature.
			f, sealed, err := s.splitSignatureFields(sig.subjectID, sig.documentID, "", f)
			if err != nil {
				return err
			}
			plain, err := json.Marshal(f)
			if err != nil {
				return fmt.Errorf("store: seal rows: %w", err)
			}
			if _, err := tx.db.ExecContext(ctx, `UPDATE legal_signatures SET fields = $1, sealed_fields = $2 WHERE id = $3`,
				string(plain), sealed, sig.id); err != nil {
				return fmt.Errorf("store: seal rows: %w", err)
			}
		}

		if _, err := tx.db.ExecContext(ctx, `INSERT INTO meta (name, value) VALUES ($1, $2)`, sealedRowsDone, []byte("1")); err != nil {
			return fmt.Errorf("store: seal rows: %w", err)
		}
		if resealed+len(sigs) > 0 {
			s.cfg.Logger.Info("sealed values bound to their rows", "personalInformation", resealed, "signatures", len(sigs))
		}
		return nil
	})
}

// sealedImagesDone is the meta row recording that sealSignatureImages
// converted the database; later starts skip the scan.
const sealedImagesDone = "sealed_signature_images"

// sealSignatureImages seals the signature images earlier versions stored
// plain. Like sealRows it runs once, in one transaction that instances
// starting together take one at a time, and skips images already sealed.
// It reads a hundred rows at a time: images are tens of kilobytes each.
func (s *DB) sealSignatureImages(ctx context.Context) error {
	return s.Atomically(ctx, "seal-signature-images", func(tx *DB) error {
		var done int
		if err := tx.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM meta WHERE name = $1`, sealedImagesDone).Scan(&done); err != nil {
			return fmt.Errorf("store: seal signature images: %w", err)
		}
		if done > 0 {
			return nil
		}
		type image struct {
			id, subjectID, documentID int64
			instance                  string
			png                       []byte
		}
		sealed, after := 0, int64(0)
		for {
			rows, err := tx.db.QueryContext(ctx, `SELECT id, subject_id, document_id, instance, signature_png FROM legal_signatures
				WHERE id > $1 AND signature_png IS NOT NULL ORDER BY id LIMIT 100`, after)
			if err != nil {
				return fmt.Errorf("store: seal signature images: %w", err)
			}
			var batch []image
			for rows.Next() {
				var img image
				if err := rows.Scan(&img.id, &img.subjectID, &img.documentID, &img.instance, &img.png); err != nil {
					rows.Close()
					return fmt.Errorf("store: seal signature images: %w", err)
				}
				batch = append(batch, img)
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return fmt.Errorf("store: seal signature images: %w", err)
			}
			if len(batch) == 0 {
				break
			}
			for _, img := range batch {
				after = img.id
				if seal.IsBound(img.png) {
					continue // a PNG starts with 0x89, never the sealed format's byte
				}
				v, err := tx.sealSignatureImage(img.subjectID, img.documentID, img.instance, img.png)
				if err != nil {
					return err
				}
				if _, err := tx.db.ExecContext(ctx, `UPDATE legal_signatures SET signature_png = $1 WHERE id = $2`, v, img.id); err != nil {
					return fmt.Errorf("store: seal signature images: %w", err)
				}
				sealed++
			}
		}
		if _, err := tx.db.ExecContext(ctx, `INSERT INTO meta (name, value) VALUES ($1, $2)`, sealedImagesDone, []byte("1")); err != nil {
			return fmt.Errorf("store: seal signature images: %w", err)
		}
		if sealed > 0 {
			s.cfg.Logger.Info("signature images sealed", "signatures", sealed)
		}
		return nil
	})
}
