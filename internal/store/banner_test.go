package store_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"applicantportal/internal/portal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

func TestOperatorBanners(t *testing.T) {
	c := newClock()
	storetest.Each(t, sessionConfig(t, c), func(t *testing.T, db *store.DB) {
		c.t = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
		ctx := context.Background()
		ops := db.Operator()
		banners := db.Banners()
		acme, other := &portal.Company{Name: "Acme"}, &portal.Company{Name: "Other"}
		for _, co := range []*portal.Company{acme, other} {
			if err := db.CreateCompany(ctx, co); err != nil {
				t.Fatal(err)
			}
		}
		jane, err := db.CreateSubject(ctx, portal.NewSubject{CompanyID: acme.ID, Email: "jane@example.com", FirstName: "Jane", LastName: "Doe"})
		if err != nil {
			t.Fatal(err)
		}
		olga, err := db.CreateSubject(ctx, portal.NewSubject{CompanyID: other.ID, Email: "olga@example.com", FirstName: "Olga", LastName: "Berg"})
		if err != nil {
			t.Fatal(err)
		}
		active := func(s *portal.Subject) int64 {
			t.Helper()
			b, err := banners.ActiveBanner(ctx, s.ID)
			if err != nil {
				t.Fatal(err)
			}
			if b == nil {
				return 0
			}
			return b.ID
		}
		post := func(req portal.BannerRequest) *portal.OperatorBanner {
			t.Helper()
			b, err := ops.Banners.PostBanner(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			return b
		}
		at := func(d time.Duration) *time.Time { v := c.t.Add(d); return &v }
		afterYear9999 := time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)

		t.Run("BadRequestsAreInvalid", func(t *testing.T) {
			for name, tc := range map[string]struct {
				req   portal.BannerRequest
				code  string
				field string
			}{
				"Empty":        {portal.BannerRequest{Message: "  \n "}, portal.EINVALID, "message"},
				"TooLong":      {portal.BannerRequest{Message: strings.Repeat("é", portal.MaxBannerLength+1)}, portal.EINVALID, "message"},
				"EndInThePast": {portal.BannerRequest{Message: "Soon", EndsAt: at(-time.Second)}, portal.EINVALID, "endsAt"},
				"EndNow":       {portal.BannerRequest{Message: "Soon", EndsAt: at(0)}, portal.EINVALID, "endsAt"},
				// Found by QA: such an end was answered as "10000-01-01T…",
				// which no RFC 3339 reader takes.
				"EndAfterYear9999": {portal.BannerRequest{Message: "Long", EndsAt: &afterYear9999}, portal.EINVALID, "endsAt"},
				"UnknownCompany":   {portal.BannerRequest{Message: "Soon", CompanyID: 999}, portal.ENOTFOUND, ""},
			} {
				t.Run(name, func(t *testing.T) {
					_, err := ops.Banners.PostBanner(ctx, tc.req)
					if pe := wantCode(t, err, tc.code); tc.field != "" && !portal.FieldErrors(pe.Fields).Has(tc.field) {
						t.Errorf("fields = %+v; want %s", pe.Fields, tc.field)
					}
				})
			}
			if _, err := ops.Banners.SetBanner(ctx, strings.Repeat("x", portal.MaxBannerLength+1)); portal.ErrorCode(err) != portal.EINVALID {
				t.Errorf("SetBanner of an over-long message: %v", err)
			}
			if got, _ := ops.Banners.FindBanners(ctx, 0); len(got) != 0 {
				t.Errorf("refused banners were stored: %+v", got)
			}
		})

		everyone := post(portal.BannerRequest{Message: "  Maintenance tonight  ", EndsAt: at(2 * time.Hour)})
		acmes := post(portal.BannerRequest{Message: "Acme's offices close early", CompanyID: acme.ID})
		t.Run("CompanyBannerIsOnlyItsApplicants", func(t *testing.T) {
			if everyone.Message != "Maintenance tonight" || everyone.CompanyID != 0 || !everyone.EndsAt.Equal(c.t.Add(2*time.Hour)) ||
				acmes.CompanyID != acme.ID || acmes.EndsAt != nil || !acmes.CreatedAt.Equal(c.t) {
				t.Errorf("posted %+v and %+v", everyone, acmes)
			}
			if active(jane) != acmes.ID || active(olga) != everyone.ID {
				t.Errorf("jane sees %d (want %d), olga %d (want %d)", active(jane), acmes.ID, active(olga), everyone.ID)
			}
			wantCode(t, banners.DismissBanner(ctx, olga.ID, acmes.ID), portal.ENOTFOUND)
			mine, _ := ops.Banners.FindBanners(ctx, acme.ID)
			all, _ := ops.Banners.FindBanners(ctx, 0)
			if len(mine) != 1 || mine[0].ID != acmes.ID || len(all) != 2 || all[0].ID != acmes.ID || all[1].ID != everyone.ID {
				t.Errorf("acme's banners %+v, every banner %+v", mine, all)
			}
		})
		t.Run("DismissalStaysAfterAReload", func(t *testing.T) {
			if err := banners.DismissBanner(ctx, jane.ID, acmes.ID); err != nil {
				t.Fatal(err)
			}
			if active(jane) != everyone.ID {
				t.Errorf("after dismissing acme's, jane sees %d; want the older banner %d", active(jane), everyone.ID)
			}
			if err := banners.DismissBanner(ctx, jane.ID, everyone.ID); err != nil {
				t.Fatal(err)
			}
			for reload := range 2 {
				if id := active(jane); id != 0 {
					t.Errorf("reload %d: jane sees %d after dismissing both", reload, id)
				}
			}
			if active(olga) != everyone.ID {
				t.Error("jane's dismissal hid the banner from olga")
			}
			wantCode(t, banners.DismissBanner(ctx, jane.ID, 999), portal.ENOTFOUND)
		})
		t.Run("BannerEndsByItself", func(t *testing.T) {
			c.advance(2 * time.Hour)
			if id := active(olga); id != 0 {
				t.Errorf("olga still sees %d at its end time", id)
			}
			if all, _ := ops.Banners.FindBanners(ctx, 0); len(all) != 1 || all[0].ID != acmes.ID {
				t.Errorf("banners after the end = %+v", all)
			}
		})
		t.Run("NewBannerReplacesItsAudiencesOnly", func(t *testing.T) {
			second := post(portal.BannerRequest{Message: "Acme: new hours", CompanyID: acme.ID})
			if all, _ := ops.Banners.FindBanners(ctx, 0); len(all) != 1 || all[0].ID != second.ID {
				t.Errorf("banners = %+v; want only %d", all, second.ID)
			}
			if active(jane) != second.ID {
				t.Errorf("jane sees %d; a new banner shows although she dismissed the one before", active(jane))
			}
			global := post(portal.BannerRequest{Message: "Upgrade at noon"})
			if all, _ := ops.Banners.FindBanners(ctx, 0); len(all) != 2 {
				t.Errorf("a banner for everyone ended acme's: %+v", all)
			}
			if active(olga) != global.ID {
				t.Errorf("olga sees %d; want %d", active(olga), global.ID)
			}
		})
		t.Run("ClearIsScoped", func(t *testing.T) {
			list, _ := ops.Banners.FindBanners(ctx, acme.ID)
			id := list[0].ID
			wantCode(t, ops.Banners.ClearBanner(ctx, other.ID, id), portal.ENOTFOUND)
			wantCode(t, ops.Banners.ClearBanner(ctx, acme.ID, 999), portal.ENOTFOUND)
			if err := ops.Banners.ClearBanner(ctx, acme.ID, id); err != nil {
				t.Fatal(err)
			}
			if err := ops.Banners.ClearBanner(ctx, acme.ID, id); err != nil {
				t.Errorf("clearing again: %v", err)
			}
			if active(jane) == id {
				t.Error("jane still sees the cleared banner")
			}
			post(portal.BannerRequest{Message: "Acme again", CompanyID: acme.ID})
			if err := ops.Banners.ClearBanner(ctx, other.ID, 0); err != nil {
				t.Fatal(err)
			}
			if all, _ := ops.Banners.FindBanners(ctx, 0); len(all) != 2 {
				t.Errorf("clearing other's audience ended %+v", all)
			}
			if err := ops.Banners.ClearBanner(ctx, 0, 0); err != nil {
				t.Fatal(err)
			}
			if all, _ := ops.Banners.FindBanners(ctx, 0); len(all) != 0 || active(jane) != 0 || active(olga) != 0 {
				t.Errorf("after clearing every banner: %+v", all)
			}
		})
	})
}

// TestBannerChangesPublish: each change reaches the topic of its audience,
// and no other, so an applicant's open page (listening to everyone's topic
// and their company's) shows or hides it without a reload.
func TestBannerChangesPublish(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		ev := openEvents(t, db)
		ops := db.Operator()
		acme, other := &portal.Company{Name: "Acme"}, &portal.Company{Name: "Other"}
		for _, co := range []*portal.Company{acme, other} {
			if err := db.CreateCompany(ctx, co); err != nil {
				t.Fatal(err)
			}
		}
		topics := []int64{0, acme.ID, other.ID}
		subs := map[int64]<-chan portal.Event{}
		for _, co := range topics {
			ch, cancel := ev.Subscribe(ctx, portal.BannerTopic(co))
			t.Cleanup(cancel)
			subs[co] = ch
		}
		var acmeBanner int64
		tests := []struct {
			name   string
			change func() error
			to     int64 // the audience told
			kind   string
		}{
			{"PostForEveryone", func() error {
				_, err := ops.Banners.PostBanner(ctx, portal.BannerRequest{Message: "Maintenance tonight"})
				return err
			}, 0, "posted"},
			{"PostForOneCompany", func() error {
				b, err := ops.Banners.PostBanner(ctx, portal.BannerRequest{Message: "Acme only", CompanyID: acme.ID})
				if b != nil {
					acmeBanner = b.ID
				}
				return err
			}, acme.ID, "posted"},
			{"ClearOneBannerByIDTellsItsCompany", func() error { return ops.Banners.ClearBanner(ctx, 0, acmeBanner) }, acme.ID, "cleared"},
			{"ClearACompany", func() error { return ops.Banners.ClearBanner(ctx, other.ID, 0) }, other.ID, "cleared"},
			{"ClearEverything", func() error { return ops.Banners.ClearBanner(ctx, 0, 0) }, 0, "cleared"},
			{"SetCommand", func() error { _, err := ops.Banners.SetBanner(ctx, "Back at 6"); return err }, 0, "posted"},
			{"SetCommandEmptyClears", func() error { _, err := ops.Banners.SetBanner(ctx, " "); return err }, 0, "cleared"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				if err := tt.change(); err != nil {
					t.Fatal(err)
				}
				e, ok := next(t, subs[tt.to])
				var got portal.BannerEvent
				if !ok || json.Unmarshal(e.Payload, &got) != nil || got.Kind != tt.kind {
					t.Errorf("event on %s = %s (open %v); want kind %q", portal.BannerTopic(tt.to), e.Payload, ok, tt.kind)
				}
				for _, co := range topics {
					if co == tt.to {
						continue
					}
					select {
					case e := <-subs[co]:
						t.Errorf("%s was told too: %s", portal.BannerTopic(co), e.Payload)
					default:
					}
				}
			})
		}
		t.Run("RefusedChangeTellsNobody", func(t *testing.T) {
			if err := ops.Banners.ClearBanner(ctx, other.ID, acmeBanner); portal.ErrorCode(err) != portal.ENOTFOUND {
				t.Fatalf("clear another company's banner: %v", err)
			}
			if _, err := ops.Banners.PostBanner(ctx, portal.BannerRequest{Message: ""}); err == nil {
				t.Fatal("an empty banner was posted")
			}
			time.Sleep(2 * store.EventPoll)
			for _, co := range topics {
				select {
				case e := <-subs[co]:
					t.Errorf("%s was told of a refused change: %s", portal.BannerTopic(co), e.Payload)
				default:
				}
			}
		})
	})
}
