package store

import (
	"context"
	"fmt"

	"applicantportal/internal/portal"
)

// finalizationOf is what the steps after identity verification depend on,
// under the operator's self-pay rules; its methods decide those steps.
func (s *conn) finalizationOf(prefs portal.CompanyPreferences, pkg *portal.Package, loc portal.Location) portal.Finalization {
	return portal.Finalization{Preferences: prefs, Package: pkg, Location: loc, SelfPay: s.cfg.SelfPay}
}

// finalization reads the subject and what the steps after its identity
// verification depend on.
func (s *conn) finalization(ctx context.Context, q queryer, subjectID int64) (*portal.Subject, portal.Finalization, error) {
	sub, c, pkg, err := s.subjectCompany(ctx, q, subjectID)
	if err != nil {
		return nil, portal.Finalization{}, err
	}
	loc, err := findLocation(ctx, q, subjectID)
	if err != nil {
		return nil, portal.Finalization{}, err
	}
	return sub, s.finalizationOf(c.Preferences, pkg, loc), nil
}

// finalizationSteps says which steps after identity verification the
// subject has done: a finished session (neither active nor expired, not
// declined), a chosen site, an authorized hold.
// finalizationStepsColumns are finalizationSteps' three answers as
// columns of a SELECT, for its arguments (finalizationStepsArgs: the
// subject's id is $1).
const finalizationStepsColumns = `
		EXISTS (SELECT 1 FROM idv_sessions WHERE subject_id = $1 AND status IN ($2, $3, $4) AND decision <> $5),
		EXISTS (SELECT 1 FROM subject_collection_sites WHERE subject_id = $1),
		EXISTS (SELECT 1 FROM payments WHERE subject_id = $1 AND status = 'authorized')`

func finalizationStepsArgs(subjectID int64) []any {
	return []any{subjectID, portal.IDVCompletedByUser, portal.IDVCheckCompleted, portal.IDVDataCompleted, string(portal.IDVDeclined)}
}

func finalizationSteps(ctx context.Context, q queryer, subjectID int64) (idvFinished, siteChosen, paymentAuthorized bool, err error) {
	err = q.QueryRowContext(ctx, `SELECT `+finalizationStepsColumns, finalizationStepsArgs(subjectID)...).
		Scan(&idvFinished, &siteChosen, &paymentAuthorized)
	if err != nil {
		return false, false, false, fmt.Errorf("store: finalization steps: %w", err)
	}
	return idvFinished, siteChosen, paymentAuthorized, nil
}
