package governance

import (
	"context"
	"iter"
	"net/http"
	"net/url"
	"strconv"
)

// Page is one page of a collection. NextCursor is empty on the last page.
type Page[T any] struct {
	Items      []T    `json:"items"`
	NextCursor string `json:"next_cursor"`
}

// ListOptions are the paging parameters every collection takes.
type ListOptions struct {
	// Limit is the page size, 1-500; 0 means the service default (50).
	Limit int
	// Cursor is a previous page's NextCursor; empty for the first page.
	Cursor string
}

func (o ListOptions) encode(q url.Values) {
	if o.Limit != 0 {
		q.Set("limit", strconv.Itoa(o.Limit))
	}
	if o.Cursor != "" {
		q.Set("cursor", o.Cursor)
	}
}

// paginate yields every item from the page at cursor on, fetching the next
// page while the caller keeps ranging. An error is yielded once, last.
func paginate[T any](ctx context.Context, cursor string,
	fetch func(ctx context.Context, cursor string) (*Page[T], error)) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		for {
			page, err := fetch(ctx, cursor)
			if err != nil {
				var zero T
				yield(zero, err)
				return
			}
			for _, item := range page.Items {
				if !yield(item, nil) {
					return
				}
			}
			if page.NextCursor == "" || page.NextCursor == cursor {
				return
			}
			cursor = page.NextCursor
		}
	}
}

// paged is a pointer to list options that hold the paging parameters:
// [ListOptions] itself or a filter type that embeds it.
type paged[O any] interface {
	*O
	paging() *ListOptions
}

func (o *ListOptions) paging() *ListOptions { return o }

// listAll yields every item of a collection, from opts' cursor on, with list
// fetching each page.
func listAll[O any, P paged[O], T any](ctx context.Context, opts *O,
	list func(ctx context.Context, opts *O) (*Page[T], *Response, error)) iter.Seq2[T, error] {
	var base O
	if opts != nil {
		base = *opts
	}
	return paginate(ctx, P(&base).paging().Cursor, func(ctx context.Context, cursor string) (*Page[T], error) {
		o := base
		P(&o).paging().Cursor = cursor
		page, _, err := list(ctx, &o)
		return page, err
	})
}

// listPage reads one page of a collection that takes plain [ListOptions].
func listPage[T any](ctx context.Context, c *Client, path string, opts *ListOptions,
	ro []RequestOption) (*Page[T], *Response, error) {
	q := url.Values{}
	if opts != nil {
		opts.encode(q)
	}
	return sendFor[Page[T]](ctx, c, call{method: http.MethodGet, path: path, query: q, opts: ro})
}

// listPageAt reads one page of a collection under one resource, refusing an
// empty id.
func listPageAt[T any](ctx context.Context, c *Client, collection, id, rest string, opts *ListOptions,
	ro []RequestOption) (*Page[T], *Response, error) {
	path, err := idPath(collection, id, rest)
	if err != nil {
		return nil, nil, err
	}
	return listPage[T](ctx, c, path, opts, ro)
}

// chunks splits items into consecutive slices of at most size items.
func chunks[T any](items []T, size int) [][]T {
	var out [][]T
	for start := 0; start < len(items); start += size {
		out = append(out, items[start:min(start+size, len(items))])
	}
	return out
}
