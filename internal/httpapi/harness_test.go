package httpapi_test

import (
	"applicantportal/internal/httpapi"
	"applicantportal/internal/store"
)

// storeServices are the store's services as cmd/portal wires them.
func storeServices(db *store.DB) httpapi.Services {
	return httpapi.Services{
		Auth: db.Auth(), Subjects: db.Subjects(), Personal: db.Personal(), Legal: db.Legal(),
		SubjectData: db.SubjectData(), Banners: db.Banners(),
	}
}
