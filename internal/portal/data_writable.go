package portal

// ErrProfileSubmitted refuses changes to the applicant's data once the
// profile went past setup-complete (identity verification started).
var ErrProfileSubmitted = &Error{Code: ECONFLICT, Message: "Your profile has been submitted; contact the employer to change it."}

// DataWritable reports whether the applicant may still change their data
// pages in status s.
func DataWritable(s StatusID) bool { return s == StatusNew || s == StatusSetupComplete }
