package sitesandbox

// OpenAt is the search's open-now check.
var OpenAt = openAt
