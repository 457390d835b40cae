package portal

import (
	"context"
	"io"
)

// DocumentType is a kind of document a package asks the applicant to
// upload (the profile's documentTypes): a driver's license, a diploma...
type DocumentType struct {
	Type        string // the code, such as "drivers_license"
	Title       string
	Description string
	// Required types must have at least one upload before the profile is
	// ready to submit.
	Required bool
}

// Document is a file the applicant uploaded for one document type.
type Document struct {
	ID   int64
	Type string // DocumentType.Type
	File File
}

// ReportKind is one of the PDFs an operator attaches for the applicant to
// download (spec section 7: report, drug-report, ecoc-form).
type ReportKind string

const (
	ReportBackground ReportKind = "report"
	ReportDrug       ReportKind = "drug-report"
	ReportECOC       ReportKind = "ecoc-form"
)

// ReportKinds are every kind, in the order the applicant is shown them.
var ReportKinds = []ReportKind{ReportBackground, ReportDrug, ReportECOC}

// Report is a report attached to the applicant.
type Report struct {
	Kind ReportKind
	File File
}

// DocumentList is what /additional-documents and the hub show: the types
// asked for, what was sent, the reports attached, and whether the applicant
// may still add or delete documents.
type DocumentList struct {
	Types     []DocumentType
	Documents []Document // newest first
	Reports   []Report   // in ReportKinds order, only those attached
	Writable  bool
	// Deletable says whether the documents sent may still be deleted:
	// only before the profile is submitted (DocumentsDeletable).
	Deletable bool
}

// Upload is a file as it arrives: its content is read once, as it comes.
type Upload struct {
	Name        string // as the browser sent it; the service sanitizes it
	ContentType string // as declared by the browser
	Body        io.Reader
}

// PdfForm is a fillable PDF form of a package (an AcroForm template).
type PdfForm struct {
	ID          int64
	PackageID   int64
	Code        string // unique in the package, such as "idaho-release"
	Title       string
	Description string
	// FieldNames are the template's fully qualified field names, sorted;
	// a submission must have exactly these.
	FieldNames []string
	// States limits the form to applicants who live, work or lived (any
	// address of their history) in one of these states ("US-ID"); empty
	// means every applicant.
	States   []string
	Required bool
	FileID   int64 // the blank template
	// Submitted is the applicant's latest filled copy, or nil.
	Submitted *File
}

// NewPdfForm is a form an operator (or the demo) adds to a package.
type NewPdfForm struct {
	PackageID   int64
	Code        string
	Title       string
	Description string
	States      []string
	Required    bool
	FileName    string
	PDF         []byte // the template; it must have form fields
}

// DocumentService is the applicant's documents: uploads, fillable forms and
// reports. Every method is scoped to subjectID: another applicant's id is
// ENOTFOUND.
type DocumentService interface {
	FindDocuments(ctx context.Context, subjectID int64) (*DocumentList, error)
	// AddDocument checks the upload (size while reading, real type from
	// the first bytes against the declared one and the name's extension,
	// name sanitized) and stores it. Too large is ETOOLARGE, a refused or
	// mismatched type EUNSUPPORTED, an empty file or an unknown document
	// type EINVALID, a closed profile ECONFLICT. Nothing is kept of a
	// refused upload.
	AddDocument(ctx context.Context, subjectID int64, docType string, up Upload) (*Document, error)
	// OpenDocument returns the document's file and content; the caller
	// closes it.
	OpenDocument(ctx context.Context, subjectID, documentID int64) (*File, io.ReadCloser, error)
	// DeleteDocument deletes a document while DocumentsDeletable; once
	// the profile is submitted it is ErrDocumentSubmitted.
	DeleteDocument(ctx context.Context, subjectID, documentID int64) error
	// OpenReport returns the report of the kind; ENOTFOUND when none is
	// attached.
	OpenReport(ctx context.Context, subjectID int64, kind ReportKind) (*File, io.ReadCloser, error)

	// FindPdfForms lists the forms of the subject's package that apply to
	// them, with their latest submission.
	FindPdfForms(ctx context.Context, subjectID int64) ([]PdfForm, error)
	// OpenPdfForm returns a form's blank template; a form of another
	// package, or one that does not apply, is ENOTFOUND.
	OpenPdfForm(ctx context.Context, subjectID, formID int64) (*File, io.ReadCloser, error)
	// OpenFilledPdfForm returns the applicant's latest submission.
	OpenFilledPdfForm(ctx context.Context, subjectID, formID int64) (*File, io.ReadCloser, error)
	// SubmitPdfForm stores the filled form after checking it is a PDF whose
	// field names are exactly the template's (EINVALID otherwise, with a
	// message naming what differs). It replaces an earlier submission.
	SubmitPdfForm(ctx context.Context, subjectID, formID int64, up Upload) (*PdfForm, error)
}

// OperatorDocumentService is what operators add to applicants' documents:
// reports, and the packages' fillable forms.
type OperatorDocumentService interface {
	// AttachReport attaches a report PDF for the applicant to download,
	// replacing an earlier one of the kind. Not a PDF is EUNSUPPORTED,
	// past MaxReportSize ETOOLARGE, an unknown applicant ENOTFOUND, an
	// unknown kind EINVALID.
	AttachReport(ctx context.Context, req AttachReportRequest) (*File, error)
	// AddPdfForm adds a fillable PDF form (an AcroForm template) to a
	// package. A PDF without form fields, or a code the package already
	// has, is refused.
	AddPdfForm(ctx context.Context, f NewPdfForm) (*PdfForm, error)
}

// DocumentsWritable reports whether an applicant in this order status may
// add or delete documents and submit forms: from setup-complete on, until
// the screening is complete, by its order (status 4) or its profile
// (profileShown is ProfileStatusShown's answer).
func DocumentsWritable(s StatusID, profileShown string) bool {
	return s != StatusNew && s != StatusComplete && profileShown != ProfileShownComplete
}

// DocumentsDeletable reports whether an applicant in this order status may
// delete the documents they sent: only until the profile is submitted (the
// move to identity verification). What was submitted went to the screening
// team, who may already be working with it; uploads stay open after that.
func DocumentsDeletable(s StatusID, profileShown string) bool {
	return DocumentsWritable(s, profileShown) && DataWritable(s)
}

// Why an applicant may not change documents now.
var (
	ErrDocumentsSetupFirst = &Error{Code: ECONFLICT, Message: "Finish setting up your account first."}
	ErrDocumentsClosed     = &Error{Code: ECONFLICT, Message: "Your screening is complete: documents can no longer be changed."}
	ErrDocumentSubmitted   = &Error{Code: ECONFLICT, Message: "This file was sent with your screening and can no longer be deleted. If it is wrong, upload the right one and tell your employer's hiring team."}
)

// AttachReportRequest is an operator attaching a report PDF to an
// applicant (portal report upload).
type AttachReportRequest struct {
	// CompanyID limits the applicant to a company (0: any, the command
	// line); another company's applicant is ENOTFOUND.
	CompanyID int64
	SubjectID int64
	Kind      ReportKind
	Name      string
	Body      io.Reader
}

// MaxReportSize is the largest report an operator may attach: reports with
// scanned pages run larger than applicants' uploads.
const MaxReportSize = 100 << 20
