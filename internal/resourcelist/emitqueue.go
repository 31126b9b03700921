// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package resourcelist

import (
	"reflect"
	"sync"
	"unsafe"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// go-yaml's emitter (go.yaml.in/yaml/v3 v3.0.5, emitterc.go,
// yaml_emitter_emit) appends every event of a document to a queue whose
// head it advances but never rewinds: the queue grows, doubling, to the
// document's whole event count, and is copied at each doubling. For the
// items this package encodes (a few hundred events each) that growth is
// most of what an encode allocates, and half of all a run allocates.
//
// An encoder's queue is therefore lent one from a pool before it encodes
// and taken back after: the queue starts with room for a typical item,
// and a run reuses a few of them instead of growing a new one per item.
// The encoder is reached by reflection (its fields are unexported); when
// the pinned go-yaml's layout is not the one expected, nothing is lent
// and encoding is go-yaml's own, only slower. TestEventQueueLent keeps the
// layout honest; the text encoded is the same either way, since the queue
// holds only events not yet emitted (TestEncodeSameWithLentQueue).

// eventQueue finds an Encoder's event queue: the index paths of
// Encoder.encoder, encoder.emitter and yaml_emitter_t.events, found once.
var eventQueue = sync.OnceValue(func() (path queuePath) {
	enc := reflect.TypeFor[yaml.Encoder]()
	f, ok := enc.FieldByName("encoder")
	if !ok || f.Type.Kind() != reflect.Pointer || f.Type.Elem().Kind() != reflect.Struct {
		return queuePath{}
	}
	path.encoder = f.Index
	e, ok := f.Type.Elem().FieldByName("emitter")
	if !ok || e.Type.Kind() != reflect.Struct {
		return queuePath{}
	}
	ev, ok := e.Type.FieldByName("events")
	head, okHead := e.Type.FieldByName("events_head")
	if !ok || !okHead || ev.Type.Kind() != reflect.Slice || head.Type.Kind() != reflect.Int {
		return queuePath{}
	}
	path.emitter, path.events, path.head = e.Index, ev.Index, head.Index
	path.typ = ev.Type
	return path
})

type queuePath struct {
	encoder, emitter, events, head []int
	typ                            reflect.Type // []yaml_event_t
}

// queueCap is the room a lent queue starts with: an item of the benchmark
// corpus is about 300 events.
const queueCap = 1024

// queues holds the queues lent out; it is only asked for one once
// eventQueue has found the queue's type.
var queues = sync.Pool{New: func() any { return reflect.MakeSlice(eventQueue().typ, 0, queueCap) }}

// lendQueue gives enc's emitter, which has emitted nothing yet, a queue
// from the pool; it returns the handle returnQueue takes, or an invalid
// Value when nothing was lent.
func lendQueue(enc *yaml.Encoder) reflect.Value {
	p := eventQueue()
	if p.typ == nil {
		return reflect.Value{}
	}
	events, head, ok := queueOf(enc, p)
	if !ok || events.Len() != 0 || head.Int() != 0 {
		return reflect.Value{}
	}
	events.Set(queues.Get().(reflect.Value))
	return events
}

// returnQueue takes back the queue lendQueue lent, for the next encoder,
// once the encoder is closed without an error: every event it queued was
// then emitted and cleared (go-yaml's yaml_event_delete), so the queue
// holds nothing of the item.
func returnQueue(events reflect.Value) {
	if !events.IsValid() {
		return
	}
	q := events.Slice(0, 0)
	events.Set(reflect.Zero(events.Type()))
	if q.Cap() > 4*queueCap {
		return // an outsized item's queue is not kept
	}
	queues.Put(q)
}

// queueOf returns settable Values of enc's emitter's events and
// events_head fields.
func queueOf(enc *yaml.Encoder, p queuePath) (events, head reflect.Value, ok bool) {
	e := reflect.ValueOf(enc).Elem().FieldByIndex(p.encoder)
	if e.IsNil() {
		return reflect.Value{}, reflect.Value{}, false
	}
	em := e.Elem().FieldByIndex(p.emitter)
	events = em.FieldByIndex(p.events)
	head = em.FieldByIndex(p.head)
	events = reflect.NewAt(events.Type(), unsafe.Pointer(events.UnsafeAddr())).Elem()
	head = reflect.NewAt(head.Type(), unsafe.Pointer(head.UnsafeAddr())).Elem()
	return events, head, true
}
