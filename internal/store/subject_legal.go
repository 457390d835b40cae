package store

import (
	"context"
	"fmt"
	"slices"

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
	if f.Documents, err = findLegalDocumentTitles(ctx, q, sub.CompanyID); err != nil {
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

// findLegalDocumentTitles is findLegalDocuments without the texts and
// without the documents no checklist reads (not editable, so never signed
// in setup, and not a DOT release): the company's documents, with their
// current title in the language of ctx (its latest translation's, else the
// English one) and their regions. Version, Content and Language stay
// empty: the checklist needs none of them. Every document has a version
// (SaveLegalDocument adds it with the document), so none is left out for
// lack of one.
//
// Plain reads rather than findLegalDocuments' correlated subqueries: on
// SQLite those cost a few index seeks per document on every read.
func findLegalDocumentTitles(ctx context.Context, q queryer, companyID int64) ([]portal.LegalDocument, error) {
	rows, err := q.QueryContext(ctx, `
		SELECT id, document_type, visibility, code, editable, title FROM legal_documents
		WHERE company_id = $1 AND (editable OR document_type = $2) ORDER BY id`, companyID, portal.DocDOTRelease)
	if err != nil {
		return nil, fmt.Errorf("store: legal documents: %w", err)
	}
	defer rows.Close()
	var docs []portal.LegalDocument
	regional := false
	for rows.Next() {
		d := portal.LegalDocument{CompanyID: companyID}
		if err := rows.Scan(&d.ID, &d.Type.DocumentType, &d.Type.Visibility, &d.Type.Code, &d.Type.Editable, &d.Title); err != nil {
			return nil, fmt.Errorf("store: legal documents: %w", err)
		}
		d.Type.ID = d.ID
		d.Type.Regions = []portal.Region{}
		regional = regional || (d.Type.Visibility != portal.VisibilityAll && d.Type.Visibility != portal.VisibilityNonUS)
		docs = append(docs, d)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: legal documents: %w", err)
	}
	rows.Close()
	byID := func(id int64) *portal.LegalDocument {
		if i := slices.IndexFunc(docs, func(d portal.LegalDocument) bool { return d.ID == id }); i >= 0 {
			return &docs[i]
		}
		return nil
	}

	// English titles are the documents' own; a translation's title is its
	// latest version's (rows in version order: the last one wins).
	if lang := portal.LocaleOf(ctx); lang != portal.LocaleEnUS && len(docs) > 0 {
		rows, err = q.QueryContext(ctx, `
			SELECT t.document_id, t.title FROM legal_document_translations t
			JOIN legal_documents d ON d.id = t.document_id
			WHERE d.company_id = $1 AND t.language = $2 ORDER BY t.document_id, t.version`, companyID, string(lang))
		if err != nil {
			return nil, fmt.Errorf("store: legal document titles: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var id int64
			var title string
			if err := rows.Scan(&id, &title); err != nil {
				return nil, fmt.Errorf("store: legal document titles: %w", err)
			}
			if d := byID(id); d != nil {
				d.Title = title
			}
		}
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("store: legal document titles: %w", err)
		}
		rows.Close()
	}

	// Only documents shown in some regions have any.
	if !regional {
		return docs, nil
	}
	err = addLegalDocumentRegions(ctx, q, companyID, func(id int64) *[]portal.Region {
		if d := byID(id); d != nil {
			return &d.Type.Regions
		}
		return nil
	})
	return docs, err
}
