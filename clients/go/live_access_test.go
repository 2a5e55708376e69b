//go:build live

package governance

// Live tests of teams, domains, /me, the asset Domain field and filter, the
// domain_forbidden refusal and redacted traversal nodes; see live_test.go for
// what they need.

import (
	crand "crypto/rand"
	"errors"
	"slices"
	"strings"
	"testing"
)

// liveSlug is a unique team or domain id: the database is shared.
func liveSlug() string { return "go-" + strings.ToLower(crand.Text()[:12]) }

// liveTeam makes a team, deleted when the test ends (after its domains).
func liveTeam(t *testing.T, c *Client) string {
	t.Helper()
	id := liveSlug()
	if _, _, err := c.Teams.Put(ctx, id, TeamRequest{}); err != nil {
		t.Fatalf("Teams.Put: %v", err)
	}
	t.Cleanup(func() {
		if _, err := c.Teams.Delete(ctx, id); err != nil && !errors.Is(err, ErrNotFound) {
			t.Errorf("cleanup: deleting team %s: %v", id, err)
		}
	})
	return id
}

// liveDomain puts a domain owned by team, deleted when the test ends.
func liveDomain(t *testing.T, c *Client, id string, req DomainRequest) *Domain {
	t.Helper()
	d, resp, err := c.Domains.Put(ctx, id, req)
	if err != nil || !resp.Created() {
		t.Fatalf("Domains.Put = %+v, %v", d, err)
	}
	t.Cleanup(func() {
		if _, err := c.Domains.Delete(ctx, id); err != nil && !errors.Is(err, ErrNotFound) {
			t.Errorf("cleanup: deleting domain %s: %v", id, err)
		}
	})
	return d
}

// liveToken is a client with a new token of one scope, revoked when the test ends.
func liveToken(t *testing.T, c *Client, p string, scope Scope) *Client {
	t.Helper()
	made, _, err := c.Tokens.Create(ctx, TokenRequest{Name: p + scope, Scopes: []Scope{scope}, ExpiresInDays: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = c.Tokens.Revoke(ctx, made.ID) })
	other, err := NewClient(WithToken(made.Secret), WithMaxRetries(0))
	if err != nil {
		t.Fatal(err)
	}
	return other
}

func TestLiveTeamsLifecycle(t *testing.T) {
	c, p := live(t)
	id := liveSlug()
	team, resp, err := c.Teams.Put(ctx, id, TeamRequest{DisplayName: "Finance", IdpGroups: []string{"fin"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = c.Teams.Delete(ctx, id) })
	if !resp.Created() || team.ID != id || team.DisplayName != "Finance" || !slices.Equal(team.IdpGroups, []string{"fin"}) ||
		len(team.Members) != 0 || team.CreatedAt.IsZero() {
		t.Errorf("created team = %+v (status %d)", team, resp.StatusCode)
	}
	team, resp, err = c.Teams.Put(ctx, id, TeamRequest{DisplayName: "Money"})
	if err != nil || resp.StatusCode != 200 || len(team.IdpGroups) != 0 {
		t.Errorf("replaced team = %+v, %v", team, err)
	}
	all, _, err := c.Teams.List(ctx)
	if err != nil || !slices.ContainsFunc(all, func(x Team) bool { return x.ID == id }) {
		t.Errorf("List = %d teams, %v; want %s among them", len(all), err, id)
	}

	user, _, err := c.Users.Create(ctx, UserRequest{Username: p + "ana", Password: "correct horse battery", Role: RoleViewer})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = c.Users.Delete(ctx, user.ID) })
	for range 2 { // the second changes nothing
		if _, err := c.Teams.AddMember(ctx, id, user.ID); err != nil {
			t.Fatal(err)
		}
	}
	if got, _, err := c.Teams.Get(ctx, id); err != nil || !slices.Equal(got.Members, []string{user.ID}) {
		t.Errorf("members = %+v, %v", got, err)
	}
	if _, err := c.Teams.RemoveMember(ctx, id, user.ID); err != nil {
		t.Fatal(err)
	}
	if got, _, err := c.Teams.Get(ctx, id); err != nil || len(got.Members) != 0 {
		t.Errorf("members after removal = %+v, %v", got, err)
	}
	_, err = c.Teams.AddMember(ctx, id, "usr_nobody")
	apiError(t, err, ErrNotFound, "")

	if _, err := c.Teams.Delete(ctx, id); err != nil {
		t.Fatal(err)
	}
	_, _, err = c.Teams.Get(ctx, id)
	apiError(t, err, ErrNotFound, "")
	_, _, err = c.Teams.Put(ctx, "Not A Slug", TeamRequest{})
	if e := apiError(t, err, ErrValidation, ""); !slices.Contains(fields(e), "path.team_id") {
		t.Errorf("fields %v; want path.team_id", fields(e))
	}
}

func TestLiveDomainHoldsTheAssetsItsRulesPick(t *testing.T) {
	c, p := live(t)
	team, audit := liveTeam(t, c), liveTeam(t, c)
	inside, outside := p+"inside", "other-"+p
	mustCreate(t, c, Asset{ID: inside, Name: "in", Type: "table"})
	mustCreate(t, c, Asset{ID: outside, Name: "out", Type: "table"})
	id := liveSlug()
	liveDomain(t, c, id, DomainRequest{
		OwnerTeam: team, DisplayName: "Ledger",
		Rules: []DomainRule{{RuleNamespace, p}}, Grants: []DomainGrant{{Team: audit, Role: RoleViewer}},
	})

	d, _, err := c.Domains.Get(ctx, id)
	if err != nil || d.OwnerTeam != team || d.Private || d.AssetCount != 1 ||
		!slices.Contains(d.Grants, DomainGrant{Team: audit, Role: RoleViewer}) {
		t.Errorf("Get = %+v, %v", d, err)
	}
	all, _, err := c.Domains.List(ctx)
	if err != nil || !slices.ContainsFunc(all, func(x Domain) bool { return x.ID == id }) {
		t.Errorf("List = %d domains, %v; want %s among them", len(all), err, id)
	}
	if a, _, err := c.Assets.Get(ctx, inside); err != nil || a.Domain != id {
		t.Errorf("inside = %+v, %v", a, err)
	}
	if a, _, err := c.Assets.Get(ctx, outside); err != nil || a.Domain != "" {
		t.Errorf("outside = %+v, %v", a, err)
	}
	listed := collect(t, c.Assets.All(ctx, &AssetListOptions{Domain: id}))
	if len(listed) != 1 || listed[0].ID != inside {
		t.Errorf("assets in the domain = %+v", listed)
	}

	_, err = c.Teams.Delete(ctx, team)
	apiError(t, err, ErrConflict, "team_owns_domains")
	_, _, err = c.Domains.Put(ctx, id+"-x", DomainRequest{OwnerTeam: team + "-nobody"})
	apiError(t, err, ErrValidation, "")

	if _, err := c.Domains.Delete(ctx, id); err != nil {
		t.Fatal(err)
	}
	if a, _, err := c.Assets.Get(ctx, inside); err != nil || a.Domain != "" {
		t.Errorf("after the domain's deletion = %+v, %v", a, err)
	}
	_, _, err = c.Domains.Get(ctx, id)
	apiError(t, err, ErrNotFound, "")
}

func TestLiveMeNamesRoleScopesTeamsAndDomainRoles(t *testing.T) {
	c, _ := live(t)
	me, _, err := c.Me(ctx)
	if err != nil || me.Role != RoleAdmin || !slices.Contains(me.Scopes, ScopeAdmin) {
		t.Errorf("Me = %+v, %v", me, err)
	}
}

func TestLiveWriteOutsideTheCallersDomainsIsRefused(t *testing.T) {
	c, p := live(t)
	team := liveTeam(t, c)
	guarded := p + "guarded"
	mustCreate(t, c, Asset{ID: guarded, Name: "g", Type: "table"})
	id := liveSlug()
	liveDomain(t, c, id, DomainRequest{OwnerTeam: team, Rules: []DomainRule{{RuleAsset, guarded}}})
	writer := liveToken(t, c, p, ScopeWrite)

	_, _, err := writer.Assets.Patch(ctx, guarded, map[string]any{"description": "not mine"})
	apiError(t, err, ErrPermission, "domain_forbidden")
	assets, total, ok := ForbiddenAssets(err)
	if !ok || total != 1 || !slices.Equal(assets, []ForbiddenAsset{{guarded, id}}) {
		t.Errorf("ForbiddenAssets = %v, %d, %v", assets, total, ok)
	}
	if a, _, err := c.Assets.Get(ctx, guarded); err != nil || a.Description != "" {
		t.Errorf("after the refusal = %+v, %v; nothing may be written", a, err)
	}
}

func TestLivePrivateDomainNodesAreRedacted(t *testing.T) {
	c, p := live(t)
	team := liveTeam(t, c)
	root, hidden, beyond := p+"root", p+"hidden", p+"beyond"
	if _, _, err := c.Lineage.Bulk(ctx, []EdgeInput{{Source: root, Target: hidden}, {Source: hidden, Target: beyond}}); err != nil {
		t.Fatal(err)
	}
	cleanup(t, c, root, hidden, beyond)
	liveDomain(t, c, liveSlug(), DomainRequest{OwnerTeam: team, Private: true, Rules: []DomainRule{{RuleAsset, hidden}}})
	reader := liveToken(t, c, p, ScopeRead)

	g, _, err := reader.Lineage.Downstream(ctx, root, &TraversalOptions{Depth: 3})
	if err != nil {
		t.Fatal(err)
	}
	var standIns []GraphNode
	for _, n := range g.Nodes {
		if n.Redacted {
			standIns = append(standIns, n)
		}
	}
	if g.Redacted != 1 || len(standIns) != 1 || standIns[0].Team != team || standIns[0].Distance != 1 {
		t.Fatalf("redacted %d, stand-ins %+v", g.Redacted, standIns)
	}
	if g.Node(hidden) != nil || g.Node(beyond) == nil {
		t.Errorf("nodes %+v: the hidden one must be a stand-in, the path must go on past it", g.Nodes)
	}
	edges := map[[2]string]bool{}
	for _, e := range g.Edges {
		edges[[2]string{e.Source, e.Target}] = true
	}
	if !edges[[2]string{root, standIns[0].ID}] || !edges[[2]string{standIns[0].ID, beyond}] {
		t.Errorf("edges %+v do not go through the stand-in %s", g.Edges, standIns[0].ID)
	}
	_, _, err = reader.Assets.Get(ctx, hidden)
	apiError(t, err, ErrNotFound, "")
	if full, _, err := c.Lineage.Downstream(ctx, root, &TraversalOptions{Depth: 3}); err != nil || full.Redacted != 0 || full.Node(hidden) == nil {
		t.Errorf("an admin sees everything: %+v, %v", full, err)
	}
}
