package main

import (
	"math"
	"testing"

	"github.com/anishathalye/porcupine"
)

func create(client int, call, ret int64, outcome, version string) porcupine.Operation {
	if outcome == "unknown" {
		ret = math.MaxInt64
	}
	return porcupine.Operation{ClientId: client, Input: "create", Call: call, Output: output{outcome, version}, Return: ret}
}

func read(client int, call, ret int64, version string) porcupine.Operation {
	return porcupine.Operation{ClientId: client, Input: "read", Call: call, Output: output{"", version}, Return: ret}
}

func check(h []porcupine.Operation) bool {
	return porcupine.CheckOperations(model.ToModel(), h)
}

func TestTwoWinners_isNotLinearizable(t *testing.T) {
	if check([]porcupine.Operation{create(0, 0, 10, "won", "a"), create(1, 5, 15, "won", "b")}) {
		t.Fatal("two creates of one name both won, and the checker accepted it")
	}
}

func TestRefusedBeforeAnyWin_isNotLinearizable(t *testing.T) {
	if check([]porcupine.Operation{create(0, 0, 10, "exists", ""), create(1, 20, 30, "won", "b")}) {
		t.Fatal("a create was refused as existing before any create, and the checker accepted it")
	}
}

func TestReadOfAbsentAfterAWin_isNotLinearizable(t *testing.T) {
	if check([]porcupine.Operation{create(0, 0, 10, "won", "a"), read(1, 20, 30, "")}) {
		t.Fatal("a read after a won create saw nothing, and the checker accepted it")
	}
}

func TestConcurrentRaceAndReads_isLinearizable(t *testing.T) {
	h := []porcupine.Operation{create(0, 0, 10, "exists", ""), create(1, 2, 8, "won", "b"), read(2, 1, 3, ""),
		read(2, 11, 12, "b")}
	if !check(h) {
		t.Fatal("a linearizable race was rejected")
	}
}

func TestUnknownCreate_mayWinLater_orNever(t *testing.T) {
	if !check([]porcupine.Operation{create(0, 0, 10, "unknown", ""), read(1, 20, 21, ""), read(1, 30, 31, "x")}) {
		t.Fatal("an unknown create that took effect late was rejected")
	}
	if !check([]porcupine.Operation{create(0, 0, 10, "unknown", ""), create(1, 20, 30, "won", "b")}) {
		t.Fatal("an unknown create that had no effect was rejected")
	}
	if check([]porcupine.Operation{create(0, 0, 10, "unknown", ""), read(1, 20, 21, "x"), read(1, 30, 31, "y")}) {
		t.Fatal("two different versions were read, and the checker accepted it")
	}
}
