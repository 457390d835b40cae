package store

// FileReferrersForTest lists the columns the sweep checks before it
// deletes a file, as "table.column".
func FileReferrersForTest() []string {
	var out []string
	for _, r := range fileReferrers {
		out = append(out, r.table+"."+r.column)
	}
	return out
}
