package store

// Stubs of the operators' side until it is built (issue 13, operators):
// replaced by apikeys.go, banner.go and applicants.go.

import (
	"context"

	"applicantportal/internal/portal"
)

var errOperatorNotBuilt = portal.Errorf(portal.EUNAVAILABLE, "Not built yet.")

func (o *OperatorService) ApplicantDetail(ctx context.Context, companyID, subjectID int64) (*portal.ApplicantDetail, error) {
	return nil, errOperatorNotBuilt
}
func (o *OperatorService) PostBanner(ctx context.Context, req portal.BannerRequest) (*portal.OperatorBanner, error) {
	return nil, errOperatorNotBuilt
}
func (o *OperatorService) ClearBanner(ctx context.Context, companyID, bannerID int64) error {
	return errOperatorNotBuilt
}
func (o *OperatorService) Banners(ctx context.Context, companyID int64) ([]portal.OperatorBanner, error) {
	return nil, errOperatorNotBuilt
}
func (o *OperatorService) CreateAPIKey(ctx context.Context, companyID int64, name string) (*portal.APIKey, string, error) {
	return nil, "", errOperatorNotBuilt
}
func (o *OperatorService) APIKeys(ctx context.Context, companyID int64) ([]portal.APIKey, error) {
	return nil, errOperatorNotBuilt
}
func (o *OperatorService) RevokeAPIKey(ctx context.Context, keyID int64) error {
	return errOperatorNotBuilt
}
func (o *OperatorService) AuthenticateAPIKey(ctx context.Context, secret string) (*portal.APIKey, error) {
	return nil, errOperatorNotBuilt
}
