package portal

// ChecklistPage is one data page of the applicant's checklist (GET
// /api/v2/user/subject "pages"): whether it is done and, when not, what is
// missing, in sentences the applicant reads.
type ChecklistPage struct {
	ID       string   `json:"id"`
	Path     string   `json:"path"`
	Title    string   `json:"title"`
	Required bool     `json:"required"`
	Complete bool     `json:"complete"`
	Missing  []string `json:"missing"`
}
