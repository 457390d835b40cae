package portal

import (
	"context"
	"time"
)

// OrderService answers what became of the applicant's orders.
type OrderService interface {
	// FindOrder returns one of the subject's orders with the services of
	// its package; ENOTFOUND for an order of anyone else.
	FindOrder(ctx context.Context, subjectID, orderID int64) (*OrderDetail, error)
}

// OrderDetail is GET /api/v2/user/order/{id}.
type OrderDetail struct {
	ID          int64
	StatusID    StatusID
	PackageName string
	CreatedAt   time.Time
	Services    []OrderServiceStatus
}

// OrderServiceStatus is one service of an order as the applicant sees it.
type OrderServiceStatus struct {
	ID    int64
	Code  string
	Name  string
	Alias string
	// Complete is set only once the order is complete (status 4).
	Complete bool
	// HasError says the applicant's data for the service's alias is
	// incomplete or invalid: they must act.
	HasError bool
}
