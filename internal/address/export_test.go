package address

// PostalCodeExamples are the example postal codes of each country's format.
func PostalCodeExamples() map[string]string {
	m := map[string]string{}
	for code, f := range formats() {
		if f.PostalCodeExamples != "" {
			m[code] = f.PostalCodeExamples
		}
	}
	return m
}

// ParseZIPs parses the ZIP data afresh, for the benchmark of the first use.
func ParseZIPs() { parseZIPs() }
