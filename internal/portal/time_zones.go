package portal

import "strings"

// StateTimeZone is the IANA zone of a US state or territory ("US-TX" or
// "TX"), or "" when unknown: reminders' quiet hours and the collection-site
// sandbox's opening hours both read it. States that span zones take the zone most of
// their people live in (Texas, Florida, Tennessee, Kentucky, Michigan,
// Indiana: their eastern or central part; Idaho: Boise's Mountain time;
// Oregon: Pacific; the Dakotas, Nebraska, Kansas: Central).
func StateTimeZone(state string) string {
	return stateZones[strings.TrimPrefix(strings.ToUpper(state), "US-")]
}

var stateZones = map[string]string{
	"AL": "America/Chicago", "AK": "America/Anchorage", "AZ": "America/Phoenix", "AR": "America/Chicago",
	"CA": "America/Los_Angeles", "CO": "America/Denver", "CT": "America/New_York", "DE": "America/New_York",
	"DC": "America/New_York", "FL": "America/New_York", "GA": "America/New_York", "HI": "Pacific/Honolulu",
	"ID": "America/Boise", "IL": "America/Chicago", "IN": "America/Indiana/Indianapolis", "IA": "America/Chicago",
	"KS": "America/Chicago", "KY": "America/New_York", "LA": "America/Chicago", "ME": "America/New_York",
	"MD": "America/New_York", "MA": "America/New_York", "MI": "America/Detroit", "MN": "America/Chicago",
	"MS": "America/Chicago", "MO": "America/Chicago", "MT": "America/Denver", "NE": "America/Chicago",
	"NV": "America/Los_Angeles", "NH": "America/New_York", "NJ": "America/New_York", "NM": "America/Denver",
	"NY": "America/New_York", "NC": "America/New_York", "ND": "America/Chicago", "OH": "America/New_York",
	"OK": "America/Chicago", "OR": "America/Los_Angeles", "PA": "America/New_York", "RI": "America/New_York",
	"SC": "America/New_York", "SD": "America/Chicago", "TN": "America/Chicago", "TX": "America/Chicago",
	"UT": "America/Denver", "VT": "America/New_York", "VA": "America/New_York", "WA": "America/Los_Angeles",
	"WV": "America/New_York", "WI": "America/Chicago", "WY": "America/Denver",
	"PR": "America/Puerto_Rico", "VI": "America/St_Thomas", "GU": "Pacific/Guam", "AS": "Pacific/Pago_Pago",
	"MP": "Pacific/Saipan", "FM": "Pacific/Pohnpei", "MH": "Pacific/Majuro", "PW": "Pacific/Palau",
}
