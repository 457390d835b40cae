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

// OperatorOrderService is what operators record of an applicant's orders
// as the screening goes on.
type OperatorOrderService interface {
	// MarkSpecimenCollected records that the applicant's specimen was
	// collected at the chosen site, which then can no longer change. An
	// applicant without a chosen site is ENOTFOUND; marking again keeps
	// the first time.
	MarkSpecimenCollected(ctx context.Context, subjectID int64) (*SiteChoice, error)
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
	// Complete is set once the service is complete, or the whole order
	// (status 4).
	Complete bool
	// HasError says the applicant must act: the service waits on them, or
	// their data for the service's alias is incomplete or invalid.
	HasError bool
	// Progress is where the staff set the service (pending when never).
	Progress ServiceProgress
}
