package governance

// operations.json maps each operationId of the service's OpenAPI document to
// the method that implements it, as a dotted path from *Client. This test
// proves every path names a real method of the shape every operation has, so
// the file cannot claim what the client lacks.

import (
	"context"
	"encoding/json"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

var (
	contextType       = reflect.TypeFor[context.Context]()
	requestOptionType = reflect.TypeFor[[]RequestOption]()
	errorType         = reflect.TypeFor[error]()
	operationIDShape  = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
)

func TestOperationsJSONNamesRealMethods(t *testing.T) {
	data, err := os.ReadFile("operations.json")
	if err != nil {
		t.Fatal(err)
	}
	var ops map[string]string
	if err := json.Unmarshal(data, &ops); err != nil {
		t.Fatalf("operations.json must be a flat object of strings: %v", err)
	}
	if len(ops) == 0 {
		t.Fatal("operations.json is empty")
	}
	c, err := NewClient(WithBaseURL("http://127.0.0.1:1"), WithToken(""))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]string{}
	for op, path := range ops {
		if !operationIDShape.MatchString(op) {
			t.Errorf("%q is not an operationId", op)
		}
		if other, dup := seen[path]; dup {
			t.Errorf("%s and %s both name %s", op, other, path)
		}
		seen[path] = op
		method, err := resolve(reflect.ValueOf(c), path)
		if err != "" {
			t.Errorf("%s: %s: %s", op, path, err)
			continue
		}
		if problem := operationShape(method.Type()); problem != "" {
			t.Errorf("%s: %s %s", op, path, problem)
		}
	}
}

// resolve follows a dotted path of exported fields to a method.
func resolve(v reflect.Value, path string) (reflect.Value, string) {
	parts := strings.Split(path, ".")
	for _, field := range parts[:len(parts)-1] {
		for v.Kind() == reflect.Pointer {
			v = v.Elem()
		}
		if v.Kind() != reflect.Struct {
			return reflect.Value{}, "not a struct before " + field
		}
		if f, ok := v.Type().FieldByName(field); !ok || !f.IsExported() {
			return reflect.Value{}, "no exported field " + field
		}
		v = v.FieldByName(field)
		if v.Kind() == reflect.Pointer && v.IsNil() {
			return reflect.Value{}, field + " is nil on a new client"
		}
	}
	name := parts[len(parts)-1]
	method := v.MethodByName(name)
	if !method.IsValid() {
		return reflect.Value{}, "no method " + name + " on " + v.Type().String()
	}
	return method, ""
}

// operationShape checks the house shape: ctx first, RequestOption... last,
// an error (or, for a stream, a sequence that yields errors) last.
func operationShape(ft reflect.Type) string {
	if ft.NumIn() < 1 || ft.In(0) != contextType {
		return "does not take a context.Context first"
	}
	if !ft.IsVariadic() || ft.In(ft.NumIn()-1) != requestOptionType {
		return "does not take ...RequestOption last"
	}
	if ft.NumOut() == 0 {
		return "returns nothing"
	}
	last := ft.Out(ft.NumOut() - 1)
	if last == errorType {
		return ""
	}
	if last.Kind() == reflect.Func && last.NumIn() == 1 && last.In(0).Kind() == reflect.Func {
		if yield := last.In(0); yield.NumIn() == 2 && yield.In(1) == errorType {
			return "" // an iter.Seq2[T, error]
		}
	}
	return "returns neither an error nor an iter.Seq2[T, error] last"
}
