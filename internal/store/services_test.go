package store_test

import (
	"reflect"
	"testing"

	paymentsandbox "applicantportal/internal/sandbox/payment"
	sitesandbox "applicantportal/internal/sandbox/sites"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// TestServicesWiresEveryService holds DB.Services to portal.Services: a
// service added to the struct but not wired would be a nil interface that
// serve and the HTTP tests only meet when a request reaches it.
func TestServicesWiresEveryService(t *testing.T) {
	db := storetest.OpenSQLite(t, storetest.Config(t))
	svc := db.Services(store.ServicesConfig{
		Payments: paymentsandbox.New(paymentsandbox.Config{Records: db.SandboxRecords()}),
		Sites:    sitesandbox.New(),
		Events:   openEvents(t, db),
	})
	for _, tt := range []struct {
		Name   string
		Struct any
	}{
		{"Services", svc},
		{"OperatorServices", svc.Operator},
		{"Operator", db.Operator()},
	} {
		t.Run(tt.Name, func(t *testing.T) {
			v := reflect.ValueOf(tt.Struct)
			for i := range v.NumField() {
				if f := v.Field(i); f.Kind() == reflect.Interface && f.IsNil() {
					t.Errorf("%s.%s is not wired", v.Type().Name(), v.Type().Field(i).Name)
				}
			}
		})
	}
}
