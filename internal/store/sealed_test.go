package store_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"applicantportal/internal/portal"
	"applicantportal/internal/seal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// dotRelease signs the DOT release of a subject with the given values.
func (w *legalWorld) dotRelease(t *testing.T, s *portal.Subject, fields portal.SignatureFields) {
	t.Helper()
	req := fullRequest(t, s)
	req.LastFourSSN, req.NoSSN = fields.LastFourSSN, fields.NoSSN
	req.IdentificationCountry, req.IdentificationNumber = fields.IdentificationCountry, fields.IdentificationNumber
	if err := w.sign(t, s.ID, w.docs[portal.DocDOTRelease], req); err != nil {
		t.Fatal(err)
	}
}

// rawSignature reads a signature row as stored.
func rawSignature(t *testing.T, db *store.DB, subjectID, documentID int64) (fields string, sealed []byte) {
	t.Helper()
	if err := db.SQL().QueryRow(`SELECT fields, sealed_fields FROM legal_signatures WHERE subject_id = $1 AND document_id = $2`,
		subjectID, documentID).Scan(&fields, &sealed); err != nil {
		t.Fatal(err)
	}
	return fields, sealed
}

func TestDOTReleasePIISealedAtRest(t *testing.T) {
	eachLegalDB(t, func(t *testing.T, db *store.DB) {
		w := newLegalWorld(t, db)
		dot := w.docs[portal.DocDOTRelease]
		w.dotRelease(t, w.jane, portal.SignatureFields{LastFourSSN: "4321"})
		w.dotRelease(t, w.john, portal.SignatureFields{NoSSN: true, IdentificationCountry: "Mexico", IdentificationNumber: "MX55512345678"})
		for _, tc := range []struct {
			Name    string
			Subject *portal.Subject
			Secrets []string
			Want    portal.SignatureFields
		}{
			{"LastFourSSN", w.jane, []string{"4321"}, portal.SignatureFields{FirstName: "Jane", LastName: "Doe", LastFourSSN: "4321"}},
			{"IdentificationNumber", w.john, []string{"MX55512345678", "5678"},
				portal.SignatureFields{FirstName: "John", LastName: "Roe", NoSSN: true, IdentificationCountry: "Mexico", IdentificationNumber: "MX55512345678"}},
		} {
			t.Run(tc.Name+"NotInTheRawRow", func(t *testing.T) {
				fields, sealed := rawSignature(t, db, tc.Subject.ID, dot)
				if len(sealed) == 0 || !seal.IsBound(sealed) {
					t.Errorf("sealed_fields = %x, want a bound sealed value", sealed)
				}
				for _, secret := range tc.Secrets {
					if strings.Contains(fields, secret) || bytes.Contains(sealed, []byte(secret)) {
						t.Errorf("the stored row holds %q in plaintext: fields %s", secret, fields)
					}
				}
			})
			t.Run(tc.Name+"ReadBack", func(t *testing.T) {
				sig := w.file(t, tc.Subject.ID).Signatures[dot]
				if sig == nil || sig.Fields != tc.Want {
					t.Fatalf("fields = %+v, want %+v", sig, tc.Want)
				}
			})
		}
	})
}

// wantUnopenable checks that reading a value copied from elsewhere fails
// with an internal error that names none of the secrets.
func wantUnopenable(t *testing.T, err error, secrets ...string) {
	t.Helper()
	if err == nil {
		t.Fatal("the copied value opened")
	}
	if code := portal.ErrorCode(err); code != portal.EINTERNAL {
		t.Errorf("error code = %s, want %s", code, portal.EINTERNAL)
	}
	if !errors.Is(err, seal.ErrOpen) {
		t.Errorf("error = %v, want seal.ErrOpen", err)
	}
	for _, s := range secrets {
		if strings.Contains(err.Error(), s) || strings.Contains(portal.ErrorMessage(err), s) {
			t.Errorf("error %q names %q", err, s)
		}
	}
}

func TestSealedValueCopiedToAnotherRowDoesNotOpen(t *testing.T) {
	eachLegalDB(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		w := newLegalWorld(t, db)
		dot := w.docs[portal.DocDOTRelease]
		for _, s := range []*portal.Subject{w.jane, w.john} {
			ssn := map[int64]string{w.jane.ID: "111223333", w.john.ID: "444556666"}[s.ID]
			if err := db.Personal().SavePersonalInfo(ctx, s.ID, &portal.PersonalInfo{FirstName: s.FirstName, LastName: s.LastName, SSN: ssn}); err != nil {
				t.Fatal(err)
			}
			w.dotRelease(t, s, portal.SignatureFields{LastFourSSN: ssn[5:]})
		}
		copyValue := func(t *testing.T, query string, args ...any) {
			t.Helper()
			if _, err := db.SQL().Exec(query, args...); err != nil {
				t.Fatal(err)
			}
		}
		t.Run("ErrSSNCopiedToAnotherApplicant", func(t *testing.T) {
			copyValue(t, `UPDATE personal_info SET sealed = (SELECT sealed FROM personal_info WHERE subject_id = $1) WHERE subject_id = $2`, w.jane.ID, w.john.ID)
			_, err := db.Personal().FindPersonalInfo(ctx, w.john.ID)
			wantUnopenable(t, err, "111223333", "3333")
			if _, err := db.Subjects().FindUserView(ctx, w.john.ID); err == nil {
				t.Error("the user view opened the copied value")
			}
			if p, err := db.Personal().FindPersonalInfo(ctx, w.jane.ID); err != nil || p.SSN != "111223333" {
				t.Errorf("the original = %+v, %v", p, err)
			}
		})
		t.Run("ErrSignatureFieldsCopiedToAnotherApplicant", func(t *testing.T) {
			copyValue(t, `UPDATE legal_signatures SET sealed_fields = (SELECT sealed_fields FROM legal_signatures WHERE subject_id = $1 AND document_id = $3)
				WHERE subject_id = $2 AND document_id = $3`, w.jane.ID, w.john.ID, dot)
			_, err := db.Legal().FindLegalDocuments(ctx, w.john.ID)
			wantUnopenable(t, err, "3333")
		})
		t.Run("ErrCopiedToAnotherColumn", func(t *testing.T) {
			copyValue(t, `UPDATE legal_signatures SET sealed_fields = (SELECT sealed FROM personal_info WHERE subject_id = $1)
				WHERE subject_id = $1 AND document_id = $2`, w.jane.ID, dot)
			_, err := db.Legal().FindLegalDocuments(ctx, w.jane.ID)
			wantUnopenable(t, err, "111223333", "3333")
		})
	})
}

// TestRowsSealedByEarlierVersionsConverted stores values as versions
// before row binding did (personal information sealed unbound, a DOT
// release's last four SSN digits in plain JSON, an unbound key check) and
// starts again: they are converted, read as before, and a further start
// changes nothing.
func TestRowsSealedByEarlierVersionsConverted(t *testing.T) {
	cfg := storetest.Config(t)
	cfg.Now = func() time.Time { return legalClock }
	storetest.EachShared(t, func(t *testing.T, open func(store.Config) *store.DB) {
		ctx := context.Background()
		db := open(cfg)
		w := newLegalWorld(t, db)
		dot := w.docs[portal.DocDOTRelease]
		w.dotRelease(t, w.jane, portal.SignatureFields{LastFourSSN: "4321"})
		w.dotRelease(t, w.john, portal.SignatureFields{NoSSN: true, IdentificationCountry: "Mexico", IdentificationNumber: "MX55512345678"})
		if err := db.Personal().SavePersonalInfo(ctx, w.john.ID, &portal.PersonalInfo{FirstName: "John", LastName: "Roe", SSN: "444556666"}); err != nil {
			t.Fatal(err)
		}
		// Jane's rows as an earlier version stored them; John's personal
		// information is already bound, as after an interrupted start.
		legacy, err := json.Marshal(&portal.PersonalInfo{FirstName: "Jane", LastName: "Doe", SSN: "111224321", DOB: "1990-04-12"})
		if err != nil {
			t.Fatal(err)
		}
		unbound, err := cfg.Sealer.Seal(legacy)
		if err != nil {
			t.Fatal(err)
		}
		check, err := cfg.Sealer.Seal([]byte("applicant portal data key check"))
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range []struct {
			query string
			args  []any
		}{
			{`INSERT INTO personal_info (subject_id, sealed, saved_at) VALUES ($1, $2, 0)`, []any{w.jane.ID, unbound}},
			{`UPDATE legal_signatures SET fields = $1, sealed_fields = NULL WHERE subject_id = $2 AND document_id = $3`,
				[]any{`{"firstName":"Jane","lastName":"Doe","lastFourSSN":"4321"}`, w.jane.ID, dot}},
			{`UPDATE legal_signatures SET fields = $1, sealed_fields = NULL WHERE subject_id = $2 AND document_id = $3`,
				[]any{`{"firstName":"John","lastName":"Roe","noSSN":true,"identificationCountry":"Mexico","identificationNumber":"MX55512345678"}`, w.john.ID, dot}},
			{`UPDATE meta SET value = $1 WHERE name = 'data_key_check'`, []any{check}},
			{`DELETE FROM meta WHERE name = 'sealed_rows_bound'`, nil},
		} {
			if _, err := db.SQL().Exec(q.query, q.args...); err != nil {
				t.Fatalf("%s: %v", q.query, err)
			}
		}

		for _, start := range []string{"FirstStartConverts", "NextStartChangesNothing"} {
			t.Run(start, func(t *testing.T) {
				db := open(cfg)
				if p, err := db.Personal().FindPersonalInfo(ctx, w.jane.ID); err != nil || p.SSN != "111224321" || p.DOB != "1990-04-12" {
					t.Errorf("Jane's personal information = %+v, %v", p, err)
				}
				if p, err := db.Personal().FindPersonalInfo(ctx, w.john.ID); err != nil || p.SSN != "444556666" {
					t.Errorf("John's personal information = %+v, %v", p, err)
				}
				var raw []byte
				if err := db.SQL().QueryRow(`SELECT sealed FROM personal_info WHERE subject_id = $1`, w.jane.ID).Scan(&raw); err != nil || !seal.IsBound(raw) {
					t.Errorf("Jane's personal information is not bound: %x, %v", raw, err)
				}
				if err := db.SQL().QueryRow(`SELECT value FROM meta WHERE name = 'data_key_check'`).Scan(&raw); err != nil || !seal.IsBound(raw) {
					t.Errorf("the key check is not bound: %x, %v", raw, err)
				}
				for _, s := range []struct {
					subject *portal.Subject
					secret  string
					want    portal.SignatureFields
				}{
					{w.jane, "4321", portal.SignatureFields{FirstName: "Jane", LastName: "Doe", LastFourSSN: "4321"}},
					{w.john, "MX55512345678", portal.SignatureFields{FirstName: "John", LastName: "Roe", NoSSN: true, IdentificationCountry: "Mexico", IdentificationNumber: "MX55512345678"}},
				} {
					fields, sealed := rawSignature(t, db, s.subject.ID, dot)
					if strings.Contains(fields, s.secret) || !seal.IsBound(sealed) {
						t.Errorf("%s's signature row: fields %s, sealed %x", s.subject.FirstName, fields, sealed)
					}
					if sig := w.file(t, s.subject.ID).Signatures[dot]; sig == nil || sig.Fields != s.want {
						t.Errorf("%s's fields = %+v, want %+v", s.subject.FirstName, sig, s.want)
					}
				}
			})
		}
	})
}

// rawSignatureImage reads a signature's image column as stored.
func rawSignatureImage(t *testing.T, db *store.DB, subjectID, documentID int64) []byte {
	t.Helper()
	var img []byte
	if err := db.SQL().QueryRow(`SELECT signature_png FROM legal_signatures WHERE subject_id = $1 AND document_id = $2`,
		subjectID, documentID).Scan(&img); err != nil {
		t.Fatal(err)
	}
	return img
}

var pngMagic = []byte("\x89PNG\r\n\x1a\n")

// TestSignatureImageSealedAtRest: the stored signature image is sealed
// (not the PNG), bound to its row, and reads back as the image.
func TestSignatureImageSealedAtRest(t *testing.T) {
	eachLegalDB(t, func(t *testing.T, db *store.DB) {
		w := newLegalWorld(t, db)
		dot := w.docs[portal.DocDOTRelease]
		w.dotRelease(t, w.jane, portal.SignatureFields{LastFourSSN: "4321"})
		raw := rawSignatureImage(t, db, w.jane.ID, dot)
		if len(raw) == 0 || bytes.Contains(raw, pngMagic) || !seal.IsBound(raw) {
			t.Errorf("signature_png starts %x; want a bound sealed value, not the image", raw[:min(len(raw), 16)])
		}
		sig := w.file(t, w.jane.ID).Signatures[dot]
		if sig == nil || !bytes.HasPrefix(sig.SignatureData, pngMagic) {
			t.Fatalf("the signature read back: %+v; want its PNG image", sig)
		}
		t.Run("CopiedToAnotherRowDoesNotOpen", func(t *testing.T) {
			w.dotRelease(t, w.john, portal.SignatureFields{LastFourSSN: "1234"})
			if _, err := db.SQL().Exec(`UPDATE legal_signatures SET signature_png = $1 WHERE subject_id = $2 AND document_id = $3`,
				raw, w.john.ID, dot); err != nil {
				t.Fatal(err)
			}
			if _, err := db.Legal().FindLegalDocuments(context.Background(), w.john.ID); err == nil {
				t.Error("Jane's sealed image opened in John's row")
			}
		})
	})
}

// TestSignatureImagesOfEarlierVersionsSealedAtStart: images an earlier
// version stored plain are sealed at the next start and read as before;
// a further start changes nothing.
func TestSignatureImagesOfEarlierVersionsSealedAtStart(t *testing.T) {
	cfg := storetest.Config(t)
	cfg.Now = func() time.Time { return legalClock }
	storetest.EachShared(t, func(t *testing.T, open func(store.Config) *store.DB) {
		db := open(cfg)
		w := newLegalWorld(t, db)
		dot := w.docs[portal.DocDOTRelease]
		w.dotRelease(t, w.jane, portal.SignatureFields{LastFourSSN: "4321"})
		image := w.file(t, w.jane.ID).Signatures[dot].SignatureData
		for _, q := range []struct {
			query string
			args  []any
		}{
			{`UPDATE legal_signatures SET signature_png = $1 WHERE subject_id = $2 AND document_id = $3`, []any{image, w.jane.ID, dot}},
			{`DELETE FROM meta WHERE name = 'sealed_signature_images'`, nil},
		} {
			if _, err := db.SQL().Exec(q.query, q.args...); err != nil {
				t.Fatalf("%s: %v", q.query, err)
			}
		}
		for _, start := range []string{"FirstStartSeals", "NextStartChangesNothing"} {
			t.Run(start, func(t *testing.T) {
				db := open(cfg)
				w.db = db
				if raw := rawSignatureImage(t, db, w.jane.ID, dot); bytes.Contains(raw, pngMagic) || !seal.IsBound(raw) {
					t.Errorf("the earlier image is still plain: %x", raw[:min(len(raw), 16)])
				}
				if sig := w.file(t, w.jane.ID).Signatures[dot]; sig == nil || !bytes.Equal(sig.SignatureData, image) {
					t.Errorf("the image read back differs")
				}
			})
		}
	})
}
