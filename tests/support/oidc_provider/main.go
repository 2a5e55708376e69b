// Command oidc_provider runs zitadel/oidc's example OpenID provider on loopback for
// the single sign-on tests: one confidential client, and users read from a JSON file
// that is read again on every look-up, so a test can change a user's groups between
// two sign-ins without restarting the provider (whose signing key is made at start).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"

	"github.com/zitadel/oidc/v3/example/server/exampleop"
	"github.com/zitadel/oidc/v3/example/server/storage"
	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"
	"golang.org/x/text/language"
)

// groupsScope asks for the groups claim, as many identity providers spell it.
const groupsScope = "groups"

// fileUser is one user in the users file.
type fileUser struct {
	ID       string   `json:"id"`
	Username string   `json:"username"`
	Password string   `json:"password"`
	Email    string   `json:"email"`
	Name     string   `json:"name"`
	Groups   []string `json:"groups"`
}

// userFile is the example storage's user store over a file read on every look-up.
type userFile struct{ path string }

func (f userFile) load() []fileUser {
	var users []fileUser
	data, err := os.ReadFile(f.path)
	if err == nil {
		err = json.Unmarshal(data, &users)
	}
	if err != nil {
		slog.Error("cannot read the users file", "path", f.path, "error", err)
	}
	return users
}

func (f userFile) find(match func(fileUser) bool) *fileUser {
	for _, user := range f.load() {
		if match(user) {
			return &user
		}
	}
	return nil
}

func toExample(user *fileUser) *storage.User {
	if user == nil {
		return nil
	}
	return &storage.User{
		ID: user.ID, Username: user.Username, Password: user.Password,
		FirstName: user.Name, Email: user.Email, EmailVerified: true,
		PreferredLanguage: language.English,
	}
}

func (f userFile) GetUserByID(id string) *storage.User {
	return toExample(f.find(func(u fileUser) bool { return u.ID == id }))
}

func (f userFile) GetUserByUsername(username string) *storage.User {
	return toExample(f.find(func(u fileUser) bool { return u.Username == username }))
}

func (f userFile) ExampleClientID() string { return storage.ServiceUserID }

// client lets the example web client ask for the groups scope, put the profile
// claims in the ID token, and take redirect URIs by pattern: a test's service listens
// on a port the kernel chose, after the provider has started.
type client struct {
	*storage.Client
	redirectGlob, postLogoutGlob string
}

func (c client) RedirectURIGlobs() []string { return []string{c.redirectGlob} }

func (c client) PostLogoutRedirectURIGlobs() []string { return []string{c.postLogoutGlob} }

func (c client) IsScopeAllowed(scope string) bool {
	return scope == groupsScope || c.Client.IsScopeAllowed(scope)
}

func (c client) IDTokenUserinfoClaimsAssertion() bool { return true }

// provider is the example storage with the groups claim added.
type provider struct {
	*storage.Storage
	users  userFile
	client client
}

func (p provider) GetClientByClientID(ctx context.Context, clientID string) (op.Client, error) {
	if clientID == p.client.GetID() {
		return p.client, nil
	}
	return p.Storage.GetClientByClientID(ctx, clientID)
}

func (p provider) addGroups(info *oidc.UserInfo, subject string, scopes []string) {
	for _, scope := range scopes {
		if scope != groupsScope {
			continue
		}
		if user := p.users.find(func(u fileUser) bool { return u.ID == subject }); user != nil {
			info.AppendClaims(groupsScope, user.Groups)
		}
	}
}

func (p provider) SetUserinfoFromRequest(ctx context.Context, info *oidc.UserInfo, request op.IDTokenRequest, scopes []string) error {
	if err := p.Storage.SetUserinfoFromRequest(ctx, info, request, scopes); err != nil {
		return err
	}
	p.addGroups(info, request.GetSubject(), scopes)
	return nil
}

func main() {
	port := flag.Int("port", 0, "port to listen on at 127.0.0.1 (0: any free port)")
	usersPath := flag.String("users", "", "JSON file of users: id, username, password, email, name, groups")
	clientID := flag.String("client-id", "governance", "the relying party's client id")
	redirectGlob := flag.String("redirect-uri-glob", "", "pattern of the relying party's redirect URIs")
	postLogoutGlob := flag.String("post-logout-uri-glob", "", "pattern of where the browser may go after signing out")
	flag.Parse()
	secret := os.Getenv("OIDC_PROVIDER_CLIENT_SECRET")
	if *usersPath == "" || *redirectGlob == "" || secret == "" {
		fmt.Fprintln(os.Stderr, "need -users, -redirect-uri-glob and OIDC_PROVIDER_CLIENT_SECRET")
		os.Exit(2)
	}
	listener, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", *port))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	issuer := fmt.Sprintf("http://%s/", listener.Addr())
	users := userFile{*usersPath}
	web := client{storage.WebClient(*clientID, secret), *redirectGlob, *postLogoutGlob}
	storage.RegisterClients(web.Client) // the token endpoint checks the secret there
	store := provider{storage.NewStorage(users), users, web}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	server := &http.Server{Handler: exampleop.SetupServer(issuer, store, logger, false)}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		_ = server.Shutdown(context.Background())
	}()
	// The first line on standard output is the issuer: a caller that asked for port 0
	// learns the port from it.
	fmt.Println(issuer)
	if err := server.Serve(listener); err != http.ErrServerClosed {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
