package demo

import "applicantportal/internal/portal"

// DocumentTypes are the documents the demo package asks applicants to
// upload (contract of issue 11), all optional, in the order shown.
func DocumentTypes() []portal.DocumentType {
	return []portal.DocumentType{
		{Type: "drivers_license", Title: "Driver's license or state ID", Description: "A photo or scan of the front of your license."},
		{Type: "diploma", Title: "Diploma or transcript"},
		{Type: "other", Title: "Other supporting document",
			Description: "Court records, name-change documents, or anything else the employer asked for."},
	}
}
