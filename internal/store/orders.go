package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"applicantportal/internal/portal"
)

// OrderService implements portal.OrderService: the applicant's orders with
// the services of their packages.
type OrderService struct{ *conn }

var _ portal.OrderService = (*OrderService)(nil)

// Orders hands out the order service.
func (db *DB) Orders() *OrderService { return &OrderService{db.conn} }

// FindOrder implements portal.OrderService. An order of another subject is
// ENOTFOUND, exactly as one that does not exist.
func (s *OrderService) FindOrder(ctx context.Context, subjectID, orderID int64) (*portal.OrderDetail, error) {
	var o portal.OrderDetail
	var created int64
	var packageID int64
	err := s.db.QueryRowContext(ctx, `
		SELECT o.id, o.status_id, o.created_at, COALESCE(o.package_id, 0), COALESCE(k.name, '')
		FROM orders o JOIN profiles p ON p.id = o.profile_id LEFT JOIN packages k ON k.id = o.package_id
		WHERE o.id = $1 AND p.subject_id = $2`, orderID, subjectID).
		Scan(&o.ID, &o.StatusID, &created, &packageID, &o.PackageName)
	if err != nil {
		return nil, notFound(err, "Order")
	}
	o.CreatedAt = fromMS(created)
	o.Services = []portal.OrderServiceStatus{}
	if packageID == 0 {
		return &o, nil
	}
	rows, err := s.db.QueryContext(ctx, `SELECT id, code, name FROM package_services WHERE package_id = $1 ORDER BY id`, packageID)
	if err != nil {
		return nil, fmt.Errorf("store: order services: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var svc portal.OrderServiceStatus
		if err := rows.Scan(&svc.ID, &svc.Code, &svc.Name); err != nil {
			return nil, fmt.Errorf("store: order services: %w", err)
		}
		svc.Alias = portal.ServiceAlias(svc.Code)
		svc.Progress = portal.ServiceProgress{Code: svc.Code, Name: svc.Name, State: portal.ServicePending}
		o.Services = append(o.Services, svc)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: order services: %w", err)
	}
	// hasError is what the read model says of the service's page, so the
	// hub's order detail and its checklist agree.
	f, err := s.subjectFacts(ctx, s.db, subjectID)
	if err != nil {
		return nil, err
	}
	statuses := portal.BuildSubjectView(f).ServiceStatuses
	stored, err := orderProgress(ctx, s.db, o.ID)
	if err != nil {
		return nil, err
	}
	for i := range o.Services {
		svc := &o.Services[i]
		if p, ok := stored[svc.Code]; ok {
			p.Name = svc.Name
			svc.Progress = p
		}
		svc.Complete = o.StatusID == portal.StatusComplete || svc.Progress.State == portal.ServiceComplete
		svc.HasError = statuses[svc.Alias].HasError || (!svc.Complete && svc.Progress.State.NeedsApplicant())
	}
	return &o, nil
}

// OperatorOrderService is portal.OperatorOrderService on the store.
type OperatorOrderService struct{ db *DB }

var _ portal.OperatorOrderService = (*OperatorOrderService)(nil)

// MarkSpecimenCollected sets the chosen site's collected_at once; marking
// again keeps the first time.
func (s *OperatorOrderService) MarkSpecimenCollected(ctx context.Context, subjectID int64) (*portal.SiteChoice, error) {
	var n int64
	err := s.db.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE subject_collection_sites SET collected_at = $1 WHERE subject_id = $2 AND collected_at IS NULL`,
			ms(s.db.now()), subjectID)
		if err != nil {
			return err
		}
		if n, _ = res.RowsAffected(); n == 0 {
			return nil
		}
		return s.db.audit(ctx, tx, subjectID, "order.specimen-collected", "")
	})
	if err != nil {
		return nil, fmt.Errorf("store: mark specimen collected: %w", err)
	}
	if n == 0 {
		var one int
		err := s.db.db.QueryRowContext(ctx, `SELECT 1 FROM subject_collection_sites WHERE subject_id = $1`, subjectID).Scan(&one)
		if errors.Is(err, sql.ErrNoRows) {
			return nil, portal.Errorf(portal.ENOTFOUND, "Applicant %d has not chosen a collection site.", subjectID)
		}
		if err != nil {
			return nil, fmt.Errorf("store: mark specimen collected: %w", err)
		}
	}
	// Choice never asks the network.
	return s.db.CollectionSites(nil).Choice(ctx, subjectID)
}
