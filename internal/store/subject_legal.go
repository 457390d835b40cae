package store

import (
	"context"
	"fmt"

	"applicantportal/internal/portal"
)

// legalChecklist is the part of a subject's legal file the read model and
// a status move decide from (LegalFile.DOTReleases and UnsignedTitles):
// the company's current documents without their texts, and which documents
// and instances the subject signed, when. It leaves out what legalFile
// reads for signing and showing (texts, signature images, sealed fields),
// whose reading and unsealing cost most of GET /api/v2/user/subject.
// sub and its company are already read by the caller.
func (s *conn) legalChecklist(ctx context.Context, q queryer, sub *portal.Subject, company *portal.Company, loc portal.Location) (*portal.LegalFile, error) {
	f := &portal.LegalFile{Subject: sub, Company: company, Location: loc,
		Signatures: map[int64]*portal.Signature{}, Instances: map[portal.SignatureKey]*portal.Signature{}}
	var err error
	if f.Documents, err = s.legalDocumentTitles(ctx, q, sub.CompanyID); err != nil {
		return nil, err
	}
	if f.DOTEntries, err = s.findDOTEntries(ctx, q, sub.ID); err != nil {
		return nil, err
	}
	rows, err := q.QueryContext(ctx, `
		SELECT id, document_id, document_version, created_at, instance
		FROM legal_signatures WHERE subject_id = $1 ORDER BY id`, sub.ID)
	if err != nil {
		return nil, fmt.Errorf("store: signatures: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		sig := &portal.Signature{SubjectID: sub.ID}
		var created int64
		if err := rows.Scan(&sig.ID, &sig.DocumentID, &sig.DocumentVersion, &created, &sig.Instance); err != nil {
			return nil, fmt.Errorf("store: signatures: %w", err)
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

// legalDocumentTitles is the company's documents a checklist reads (the
// cached legalDocumentList): those editable, so signed in setup, and the DOT
// releases, with their current title in the language of ctx and, when one
// of them is shown only in some regions, their regions. Version, Content
// and Language stay empty: the checklist needs none of them.
func (s *conn) legalDocumentTitles(ctx context.Context, q queryer, companyID int64) ([]portal.LegalDocument, error) {
	all, err := s.legalDocumentList(ctx, q, companyID)
	if err != nil {
		return nil, err
	}
	var docs []portal.LegalDocument
	regional := false
	for _, d := range all {
		if !d.Type.Editable && d.Type.DocumentType != portal.DocDOTRelease {
			continue
		}
		d.Version, d.Content, d.Language = 0, "", ""
		regional = regional || (d.Type.Visibility != portal.VisibilityAll && d.Type.Visibility != portal.VisibilityNonUS)
		docs = append(docs, d)
	}
	if !regional {
		for i := range docs {
			docs[i].Type.Regions = []portal.Region{}
		}
	}
	return docs, nil
}
