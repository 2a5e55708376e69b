package governance

// Unit tests of teams, domains, /me's teams and domain roles, the asset
// domain filter, the domain_forbidden refusal and redacted traversal nodes,
// against local fake servers answering the service's shapes. No service
// needed.

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"testing"
)

var (
	teamJSON = map[string]any{
		"id": "finance", "display_name": "Finance", "idp_groups": []string{"fin"},
		"members": []string{"usr_1"}, "created_at": "2026-11-27T12:00:00Z", "updated_at": "2026-11-27T12:00:00Z",
	}
	domainJSON = map[string]any{
		"id": "ledger", "display_name": "Ledger", "description": nil, "private": true, "owner_team": "finance",
		"rules":       []map[string]string{{"kind": "namespace", "value": "pg://ledger"}},
		"grants":      []map[string]string{{"team": "finance", "role": "admin"}, {"team": "audit", "role": "viewer"}},
		"asset_count": 3, "created_at": "2026-11-27T12:00:00Z", "updated_at": "2026-11-27T12:00:00Z",
	}
)

// wire is a request's method and escaped path.
func wire(r *http.Request) string { return r.Method + " " + r.URL.EscapedPath() }

func TestTeamsArePutReadListedAndDeleted(t *testing.T) {
	f, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		switch n {
		case 1:
			writeJSON(w, 201, teamJSON)
		case 3:
			writeJSON(w, 200, map[string]any{"items": []any{teamJSON}})
		case 4:
			w.WriteHeader(204)
		default:
			writeJSON(w, 200, teamJSON)
		}
	})
	team, resp, err := c.Teams.Put(ctx, "finance", TeamRequest{DisplayName: "Finance", IdpGroups: []string{"fin"}})
	if err != nil || !resp.Created() || team.ID != "finance" || team.IdpGroups[0] != "fin" || team.Members[0] != "usr_1" {
		t.Fatalf("Put = %+v, created %v, %v", team, resp.Created(), err)
	}
	if got, _, err := c.Teams.Get(ctx, "finance"); err != nil || got.DisplayName != "Finance" {
		t.Errorf("Get = %+v, %v", got, err)
	}
	all, _, err := c.Teams.List(ctx)
	if err != nil || len(all) != 1 || all[0].ID != "finance" {
		t.Errorf("List = %+v, %v", all, err)
	}
	if _, err := c.Teams.Delete(ctx, "finance"); err != nil {
		t.Errorf("Delete: %v", err)
	}
	want := []string{"PUT /api/v1/teams/finance", "GET /api/v1/teams/finance", "GET /api/v1/teams", "DELETE /api/v1/teams/finance"}
	for i, r := range f.requests {
		if wire(r) != want[i] {
			t.Errorf("request %d = %s, want %s", i, wire(r), want[i])
		}
	}
	if f.bodies[0] != `{"display_name":"Finance","idp_groups":["fin"]}` {
		t.Errorf("Put body = %q", f.bodies[0])
	}
	if f.requests[0].Header.Get("Idempotency-Key") != "" || f.requests[2].URL.RawQuery != "" {
		t.Errorf("a PUT needs no key, a whole list no paging: %v %q", f.requests[0].Header, f.requests[2].URL.RawQuery)
	}
}

func TestTeamMembersAreAddedAndRemovedByUserID(t *testing.T) {
	f, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) { w.WriteHeader(204) })
	if _, err := c.Teams.AddMember(ctx, "finance", "usr_1/2"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Teams.RemoveMember(ctx, "finance", "usr_1/2"); err != nil {
		t.Fatal(err)
	}
	if got := wire(f.requests[0]); got != "PUT /api/v1/teams/finance/members/usr_1%2F2" || f.bodies[0] != "" {
		t.Errorf("AddMember sent %s with body %q", got, f.bodies[0])
	}
	if got := wire(f.requests[1]); got != "DELETE /api/v1/teams/finance/members/usr_1%2F2" {
		t.Errorf("RemoveMember sent %s", got)
	}
	if _, err := c.Teams.AddMember(ctx, "finance", ""); !errors.Is(err, errEmptyID) || f.count() != 2 {
		t.Errorf("an empty user id: %v after %d requests", err, f.count())
	}
}

func TestTeamErrorsKeepTheirKindsAndCodes(t *testing.T) {
	f, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if n == 1 {
			writeProblem(w, 409, "team_owns_domains", nil)
		} else {
			writeProblem(w, 404, "not_found", nil)
		}
	})
	_, err := c.Teams.Delete(ctx, "finance")
	var apiErr *Error
	if !errors.Is(err, ErrConflict) || !errors.As(err, &apiErr) || apiErr.Code != "team_owns_domains" {
		t.Errorf("Delete of an owner = %v", err)
	}
	if _, err := c.Teams.AddMember(ctx, "finance", "usr_nobody"); !errors.Is(err, ErrNotFound) {
		t.Errorf("AddMember of an unknown user = %v", err)
	}
	if f.count() != 2 {
		t.Errorf("%d requests: a 409 or 404 is not retried", f.count())
	}
}

func TestDomainsArePutWithRulesAndGrants(t *testing.T) {
	f, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		switch n {
		case 3:
			writeJSON(w, 200, map[string]any{"items": []any{domainJSON}})
		case 4:
			w.WriteHeader(204)
		default:
			writeJSON(w, 201, domainJSON)
		}
	})
	d, resp, err := c.Domains.Put(ctx, "ledger", DomainRequest{
		OwnerTeam: "finance", Private: true,
		Rules:  []DomainRule{{Kind: RuleNamespace, Value: "pg://ledger"}},
		Grants: []DomainGrant{{Team: "audit", Role: RoleViewer}},
	})
	if err != nil || !resp.Created() || d.AssetCount != 3 || !d.Private || d.Grants[1] != (DomainGrant{"audit", RoleViewer}) {
		t.Fatalf("Put = %+v, %v", d, err)
	}
	var sent map[string]any
	if err := json.Unmarshal([]byte(f.bodies[0]), &sent); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"private": true, "owner_team": "finance",
		"rules":  []any{map[string]any{"kind": "namespace", "value": "pg://ledger"}},
		"grants": []any{map[string]any{"team": "audit", "role": "viewer"}},
	}
	if !reflect.DeepEqual(sent, want) {
		t.Errorf("Put body = %v, want %v", sent, want)
	}
	// Rules and grants left nil go as empty lists: a PUT replaces them.
	if _, _, err := c.Domains.Put(ctx, "ledger", DomainRequest{OwnerTeam: "finance"}); err != nil {
		t.Fatal(err)
	}
	if want := `{"private":false,"owner_team":"finance","rules":[],"grants":[]}`; f.bodies[1] != want {
		t.Errorf("a bare Put body = %q", f.bodies[1])
	}
	all, _, err := c.Domains.List(ctx)
	if err != nil || len(all) != 1 || all[0].OwnerTeam != "finance" {
		t.Errorf("List = %+v, %v", all, err)
	}
	if _, err := c.Domains.Delete(ctx, "ledger"); err != nil {
		t.Errorf("Delete: %v", err)
	}
	if got := wire(f.requests[2]) + ", " + wire(f.requests[3]); got != "GET /api/v1/domains, DELETE /api/v1/domains/ledger" {
		t.Errorf("sent %s", got)
	}
}

func TestAssetsAreFilteredByDomain(t *testing.T) {
	f, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, map[string]any{"items": []any{map[string]any{"id": "a", "domain": "ledger"}}, "next_cursor": nil})
	})
	page, _, err := c.Assets.List(ctx, &AssetListOptions{Domain: "ledger"})
	if err != nil || page.Items[0].Domain != "ledger" {
		t.Fatalf("List = %+v, %v", page, err)
	}
	if got := f.requests[0].URL.Query().Get("domain"); got != "ledger" {
		t.Errorf("domain = %q", got)
	}
}

func TestMeNamesTeamsAndDomainRoles(t *testing.T) {
	_, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, map[string]any{"token": map[string]any{"id": "tok_1"}, "user": nil,
			"teams": []string{"finance"}, "domain_roles": map[string]string{"ledger": "admin"}})
	})
	me, _, err := c.Me(ctx)
	if err != nil || me.Teams[0] != "finance" || me.DomainRoles["ledger"] != RoleAdmin {
		t.Errorf("Me = %+v, %v", me, err)
	}
}

func TestDomainForbiddenListsTheRefusedAssets(t *testing.T) {
	f, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		writeProblem(w, 403, "domain_forbidden", map[string]any{
			"assets":       []any{map[string]any{"id": "pg://ledger/t", "domain": "ledger"}, map[string]any{"id": "loose", "domain": nil}},
			"assets_count": 120,
		})
	})
	_, _, err := c.Lineage.Create(ctx, EdgeInput{Source: "loose", Target: "pg://ledger/t"})
	if !errors.Is(err, ErrPermission) || f.count() != 1 {
		t.Fatalf("err %v after %d requests", err, f.count())
	}
	assets, total, ok := ForbiddenAssets(err)
	want := []ForbiddenAsset{{"pg://ledger/t", "ledger"}, {"loose", ""}}
	if !ok || total != 120 || !reflect.DeepEqual(assets, want) {
		t.Errorf("ForbiddenAssets = %v, %d, %v", assets, total, ok)
	}
	if _, _, ok := ForbiddenAssets(fmt.Errorf("wrapped: %w", &Error{Problem: Problem{Status: 403, Code: "insufficient_scope"}})); ok {
		t.Error("another 403 read as domain_forbidden")
	}
}

func TestRedactedNodesAreStandIns(t *testing.T) {
	_, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, map[string]any{
			"root": "a", "direction": "downstream", "depth": 2, "truncated": false, "next_cursor": nil,
			"remaining": map[string]int{}, "hidden": map[string]int{}, "capped": []any{}, "redacted": 1,
			"nodes": []any{
				map[string]any{"id": "a", "name": "a", "type": "table", "tags": []string{}, "distance": 0, "direction": "root"},
				map[string]any{"id": "redacted:1", "redacted": true, "team": "finance", "distance": 1},
			},
			"edges": []any{map[string]any{"source": "a", "target": "redacted:1"}},
		})
	})
	g, _, err := c.Lineage.Downstream(ctx, "a", nil)
	if err != nil || g.Redacted != 1 || len(g.Nodes) != 2 {
		t.Fatalf("Downstream = %+v, %v", g, err)
	}
	stand := g.Nodes[1]
	if !stand.Redacted || stand.Team != "finance" || stand.Distance != 1 || g.Nodes[0].Redacted || g.Edges[0].Target != stand.ID {
		t.Errorf("nodes = %+v, edges %+v", g.Nodes, g.Edges)
	}
}
