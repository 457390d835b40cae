package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"applicantportal/internal/portal"
)

// #nosec G101 -- usage text, not a credential
const apikeyUsage = `Usage: portal apikey create [--data DIR | --database-url URL] --company ID --name NAME
       portal apikey list [--data DIR | --database-url URL] [--company ID]
       portal apikey revoke [--data DIR | --database-url URL] --id N

An API key lets one company's own systems call the operator API
(/api/v2/operator/..., Authorization: Bearer pk_...) for that company only.
create prints the secret as its last line, once: only its hash is kept.
revoke refuses the key at once, on every server.
`

func runAPIKey(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	word, args, err := subcommand("apikey", args, apikeyUsage, stderr, "create", "list", "revoke")
	switch word {
	case "create":
		return runAPIKeyCreate(ctx, args, stdout, stderr)
	case "list":
		return runAPIKeyList(ctx, args, stdout, stderr)
	case "revoke":
		return runAPIKeyRevoke(ctx, args, stdout, stderr)
	}
	return err
}

func runAPIKeyCreate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f := newFlags("apikey create", "Creates an operator API key of one company and prints its secret as the last line, once.", stderr)
	st := f.storage()
	var companyID int64
	var name string
	f.Int64Var(&companyID, "company", 0, "the company whose applicants the key reaches (required)")
	f.StringVar(&name, "name", "", "what the key is for, e.g. the system that will use it (required)")
	if err := f.parse(args); err != nil {
		return err
	}
	if companyID <= 0 {
		fmt.Fprint(stderr, apikeyUsage)
		return errors.New("portal apikey create: give --company")
	}
	db, err := openStore(ctx, st)
	if err != nil {
		return err
	}
	defer db.Close()
	key, secret, err := db.Operator().APIKeys.CreateAPIKey(ctx, companyID, name)
	if err != nil {
		if portal.ErrorCode(err) == portal.ENOTFOUND {
			return fmt.Errorf("company %d: %s", companyID, portal.ErrorMessage(err))
		}
		return describe(err)
	}
	fmt.Fprintf(stdout, "API key %d (%s) created for company %d: %s\n", key.ID, key.Prefix, key.CompanyID, printableLine(key.Name))
	fmt.Fprintln(stdout, "Keep the secret below now: it is shown this once and cannot be recovered.")
	fmt.Fprintln(stdout, secret)
	return nil
}

func runAPIKeyList(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f := newFlags("apikey list", "Lists the operator API keys, revoked ones too: id, company, prefix, state, name.", stderr)
	st := f.storage()
	var companyID int64
	f.Int64Var(&companyID, "company", 0, "only this company's keys (default: every company's)")
	ops, db, err := f.parseAndOpenOperator(ctx, args, st)
	if err != nil {
		return err
	}
	defer db.Close()
	keys, err := ops.APIKeys.FindAPIKeys(ctx, companyID)
	if err != nil {
		return err
	}
	if len(keys) == 0 {
		fmt.Fprintln(stdout, "No API keys.")
		return nil
	}
	for _, k := range keys {
		state := "never used"
		if k.LastUsedAt != nil {
			state = "used " + stamp(*k.LastUsedAt)
		}
		if k.RevokedAt != nil {
			state = "REVOKED " + stamp(*k.RevokedAt)
		}
		fmt.Fprintf(stdout, "%6d  company %-4d  %s...  %-26s  %s\n", k.ID, k.CompanyID, k.Prefix, state, printableLine(k.Name))
	}
	return nil
}

func runAPIKeyRevoke(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f := newFlags("apikey revoke", "Revokes an operator API key at once; revoking it again keeps the first time.", stderr)
	st := f.storage()
	var id int64
	f.Int64Var(&id, "id", 0, "the key's id (portal apikey list shows it) (required)")
	if err := f.parse(args); err != nil {
		return err
	}
	if id <= 0 {
		fmt.Fprint(stderr, apikeyUsage)
		return errors.New("portal apikey revoke: give --id")
	}
	db, err := openStore(ctx, st)
	if err != nil {
		return err
	}
	defer db.Close()
	if err := db.Operator().APIKeys.RevokeAPIKey(ctx, id); err != nil {
		if portal.ErrorCode(err) == portal.ENOTFOUND {
			return fmt.Errorf("API key %d: %s", id, portal.ErrorMessage(err))
		}
		return err
	}
	fmt.Fprintf(stdout, "API key %d revoked.\n", id)
	return nil
}
