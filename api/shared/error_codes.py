"""Every error ``type`` a front end can answer, with what it means: the stable codes.

README's list is generated from ``ERROR_CODES`` (``codes_table()``), and a
test checks that every code the library raises (``code="..."``) and every
code the front ends make is listed here, so the list stays complete.  A code
once listed is not renamed or removed within ``/v1``.
"""

from __future__ import annotations

REQUEST_SHAPE: dict[str, str] = {
    "missing": "a required field is absent (or the body or line is empty)",
    "extra_forbidden": "a field the request does not have (typo?)",
    "string_type": "a string was expected",
    "string_too_long": "a string is longer than allowed (a card token: 16 characters)",
    "string_too_short": "a string is shorter than allowed (a review's player id: 1 character at "
                        "least)",
    "string_unicode": "a string that is not Unicode text (a lone surrogate escape such as "
                      "\"\\ud800\")",
    "list_type": "a list was expected",
    "too_long": "a list is longer than allowed",
    "too_short": "a list is shorter than allowed (a round: 2 players at least)",
    "int_type": "an integer was expected (\"1\", 1.5 and true are not integers; 500.0 is 500)",
    "float_type": "a number was expected (\"1\", true and null are not numbers; a review's "
                  "result)",
    "bool_type": "true or false was expected",
    "greater_than_equal": "a number below its minimum",
    "less_than_equal": "a number above its maximum",
    "model_attributes_type": "an object was expected (the body, a line, a batch item, a player)",
    "json_invalid": "not standard JSON (NaN and infinities are not), or a JSON option of the "
                    "command line that does not parse",
    "body_not_utf8": "the body (or a JSON option or file of the command line) is not UTF-8",
    "body_too_deep": "the body (or a JSON option or file of the command line) nests "
                     "arrays/objects more than 32 deep",
    "body_too_large": "413: the body is over RUMMY_SOLVER_MAX_BODY_BYTES (also a file of "
                      "the command line, uncompressed)",
    "headers_too_large": "431: the request's head is over RUMMY_SOLVER_MAX_HEADER_BYTES or has "
                         "more than RUMMY_SOLVER_MAX_HEADERS headers (the connection is closed)",
    "unsupported_media_type": "415: the body's Content-Type is not JSON (application/json or "
                              "application/*+json; /v1/solve/stream: NDJSON, application/x-ndjson); "
                              "a body without one is read as JSON (NDJSON); also a body with "
                              "a Content-Encoding (gzip ...): bodies are taken uncompressed",
    "invalid_content_length": "422: the Content-Length header is not a number of bytes, from "
                              "an HTTP server that passes such a request on (under rummy-solver "
                              "serve's HTTP protocol it is answered 400 invalid_http first)",
    "invalid_http": "400: the request is not valid HTTP/1.1 (a Content-Length that is not a "
                    "number, a malformed request line or header)",
    "body_timeout": "408: the body did not arrive within RUMMY_SOLVER_BODY_TIMEOUT_S of the "
                    "request",
    "unknown_variant": "not a preset (or not one this operation takes); the message lists them",
    "unknown_engine": "not an engine: auto, search or cpsat",
    "invalid_rules": "a knob that does not exist, a knob value out of its range, or knobs that "
                     "contradict each other; the message says what the knob takes",
    "hand_too_large": "more cards than RUMMY_SOLVER_MAX_HAND_CARDS",
    "time_limit_too_large": "time_limit_ms over RUMMY_SOLVER_MAX_TIME_LIMIT_MS (a solve) or "
                            "RUMMY_SOLVER_REQUEST_BUDGET_MS (every other operation)",
    "batch_too_large": "more batch items than RUMMY_SOLVER_MAX_BATCH",
}

LIBRARY: dict[str, str] = {
    "invalid_card": "a token that is not a card; the message says the accepted forms",
    "invalid_hand": "cards given as neither a string of cards nor a list of card tokens (the "
                    "library called directly: null, a number, a mapping)",
    "too_many_copies": "more copies of a card than the variant's decks hold",
    "too_many_jokers": "more printed jokers than the variant's decks hold",
    "too_many_cards": "more cards than the operation allows (the library called directly: "
                      "seen or discard_pile over 448 cards; the API answers too_long)",
    "wrong_hand_size": "a hand of the wrong size for the operation (gin: 10 or 11 cards)",
    "hand_too_small": "too few cards for the operation",
    "empty_hand": "no cards where some are needed (a discard from an empty hand)",
    "empty_pile": "an empty discard pile where one is needed",
    "invalid_wild_rank": "a cut card that is not a rank, a card or JK",
    "wild_rank_needs_suit": "indian21 needs the cut card's suit (7H, not 7)",
    "wild_rank_not_allowed": "a cut card for a variant without one",
    "invalid_discard": "discard is not true or false (the library called directly; the API "
                       "answers bool_type)",
    "invalid_engine": "not an engine (the library called directly)",
    "invalid_time_limit": "a time limit that is not an integer in range (the library called "
                          "directly)",
    "invalid_deadline": "a deadline that is not a solver.deadline.Deadline (the library called "
                        "directly; a time limit in milliseconds goes in time_limit_ms)",
    "invalid_setting": "an engine setting out of range (the library called directly: "
                       "solver.config.configure; a service setting out of range stops the "
                       "process at start, naming the variable)",
    "invalid_knock_limit": "a knock limit out of range (the library called directly; the API "
                           "answers less_than_equal or greater_than_equal)",
    "conflicting_knock_limit": "both knock_limit and upcard (Oklahoma) given",
    "invalid_upcard": "the Oklahoma upcard is not a standard card",
    "cannot_knock": "the knocker's deadwood is over the knock limit",
    "cannot_go_out": "the player said to go out cannot meld every card",
    "card_not_in_hand": "never an error: a problem of POST /v1/validate (problems[].code, "
                        "listed below)",
    "card_count_mismatch": "never an error: a problem of POST /v1/validate (problems[].code, "
                           "listed below)",
    "cards_left_over": "never an error: a problem of POST /v1/validate (problems[].code, "
                       "listed below)",
    "invalid_table": "table melds that are not a list of card groups (the library called "
                     "directly; the API answers list_type)",
    "invalid_table_meld": "a table meld that is not a meld under the rules",
    "table_too_large": "more table melds than allowed (the library called directly; the API "
                       "answers too_long)",
    "too_few_meld_points": "never an error: a problem of POST /v1/validate (problems[].code, "
                           "listed below)",
    "no_unseen_cards": "a draw hint with no card left to draw",
    "wrong_player_count": "a round, an advice state (Indian rummy, Rommy, basic rummy ...) or a "
                          "recorded game with too few or too many players for its game (an "
                          "advice request's players outside 2 to 8: greater_than_equal or "
                          "less_than_equal)",
    "invalid_player": "a player that is not an object of player fields (the library called "
                      "directly; the API answers model_attributes_type or extra_forbidden)",
    "invalid_melded": "a player's melded groups are malformed",
    "invalid_drop": "dropped is not first or middle",
    "invalid_flag": "a player flag the variant does not have (dropped outside Indian rummy ...)",
    "invalid_pile_penalties": "pile_penalties out of range (the library called directly; the "
                              "API answers less_than_equal)",
    "no_winner": "nobody went out in a variant that needs a winner",
    "several_winners": "more than one player went out",
    "time_limit_too_small": "a round (score_round) whose show, going out or least count the "
                            "time limit cut short: nothing exact to score on; give more "
                            "time_limit_ms (or the player's melded groups); also an advice "
                            "whose history, or a review whose record, the time limit ran out "
                            "before replaying (a history of hundreds of events)",
    "invalid_request": "input the library refused without a more precise code",
}

GAME_STATES: dict[str, str] = {
    "invalid_state": "a state field of the wrong kind (a seat, a score ...)",
    "invalid_event": "a history event that is not an object of player, action and cards",
    "card_in_two_places": "a card in two places (the hand, the pile, the opponent's known cards)",
    "pile_mismatch": "the discard pile is not what the history leaves on it",
    "stock_mismatch": "stock_count does not fit the history (or the history draws too many)",
    "history_out_of_turn": "a history event out of turn, or a move the phase does not allow",
    "invalid_knock": "a knock that does not show the knocker's cards once each",
    "invalid_meld": "a meld laid down or laid off in the history that is not a meld under the "
                    "rules, or a layoff that moves the target meld's cards (Rummy 500)",
    "not_your_turn": "the state is another player's turn to act",
    "hand_over": "the hand is over (or this player dropped): no decision is left",
    "field_not_for_game": "a field the game does not take (score and oklahoma are gin's, "
                          "wild_rank Indian rummy's, players every game's but gin's)",
    "match_over": "a score already reached the match target",
    "invalid_level": "not an advisor level: novice, standard or expert (a review: also "
                     "review)",
    "invalid_seed": "a seed that is not an integer (the library called directly; the API "
                    "answers int_type)",
    "illegal_move": "a move to value that is not legal in its position (the library called "
                    "directly: solver.play.advise's consider; a review values such a played "
                    "move without it)",
}

RECORDS: dict[str, str] = {
    "invalid_record": "a recorded game's field of the wrong kind (its players, dealer, deal, "
                      "score, result), or a field a record does not have",
    "card_not_held": "a recorded event plays a card its player does not hold then (each "
                     "seat's hand is followed from the deal)",
    "drawn_missing": "a recorded draw_stock without the card drawn (drawn), in a record "
                     "that does not give the stock's order (deal.stock)",
    "drawn_mismatch": "a recorded draw draws a card the stock no longer holds, or not the "
                      "stock's next card",
    "result_mismatch": "a record's result differs from what its events score",
    "invalid_openspiel_history": "an OpenSpiel gin_rummy action history that is not a gin "
                                 "game (an action out of range, or not legal where it stands)",
}

STREAMS: dict[str, str] = {
    "line_not_utf8": "a bulk or stream line that is not UTF-8",
    "line_too_large": "a line over RUMMY_SOLVER_MAX_BODY_BYTES",
    "line_too_deep": "a line that nests arrays/objects more than 32 deep",
    "stream_too_large": "a stream over RUMMY_SOLVER_MAX_STREAM_BYTES: later lines not read",
    "stream_time_exceeded": "a stream that ran RUMMY_SOLVER_MAX_STREAM_S seconds: later lines "
                            "not answered",
    "unknown_op": "a line's op is not an operation a line may ask for",
    "worker_crashed": "the process answering this line died; the line alone was retried",
    "workers_failed": "bulk (exit 2): its worker processes died on several lines in a row, "
                      "would not start, or the pool kept refusing lines; the answers before "
                      "are written",
    "batch_budget_exceeded": "a batch item reached after the batch's deadline",
}

SERVICE: dict[str, str] = {
    "overloaded": "503: the solvers could not start the request in time (Retry-After says when "
                  "to retry)",
    "unavailable": "503: the solver process failed or overran the deadline",
    "solver_error": "503: the solver failed on this request (a bug; the log has a reference)",
    "service_error": "503: the service failed outside the solver (a bug; logged)",
    "not_ready": "503 from /readyz: the self-check solve failed, or Redis does not answer "
                 "under RUMMY_SOLVER_RATE_LIMIT_FAIL=closed",
    "unauthorized": "401: the request carries no API key, or one the service does not know "
                    "(only when keys are configured)",
    "rate_limited": "429: the API key is over its rate limit (Retry-After says when to retry)",
    "too_many_failed_keys": "429: too many requests with an unknown API key from this client "
                            "address (RUMMY_SOLVER_AUTH_FAILURE_LIMIT); until Retry-After only "
                            "keys already used from there are served",
    "rate_limit_unavailable": "503: the rate limits cannot be counted (Redis does not answer) "
                              "and RUMMY_SOLVER_RATE_LIMIT_FAIL is closed (Retry-After says when "
                              "to retry)",
    "cors_refused": "403: a CORS preflight from an origin RUMMY_SOLVER_CORS_ORIGINS does not "
                    "list, or asking for a method other than GET, POST and OPTIONS (every "
                    "request header is allowed)",
    "not_found": "404: no such path (or variant)",
    "method_not_allowed": "405",
    "http_error": "another HTTP error",
    "too_many_errors": "more errors than the 20 listed",
}

COMMAND_LINE: dict[str, str] = {
    "invalid_choice": "an option value that is not one of its choices",
    "invalid_value": "an option value of the wrong form, or a file it names that cannot be "
                     "read or written (bulk: its IN, -o, --summary; or a --ray that cannot start; "
                     "serve: a --host or --port it cannot listen on)",
    "missing_value": "an option given without its value",
    "missing_argument": "a required option is absent",
    "conflicting_arguments": "options that cannot be given together",
    "unrecognized_arguments": "options the command does not have",
    "usage_error": "another usage error (no command ...)",
    "invalid_player_option": "round: a --went-out / --dropped ... value that names no player",
    "internal_error": "exit 1: the solver failed (not the input's fault); bulk: exit 2, the "
                      "run stopped (exit 1 there means lines answered with an error)",
}

ERROR_CODES: dict[str, str] = {**REQUEST_SHAPE, **LIBRARY, **GAME_STATES, **RECORDS, **STREAMS,
                                **SERVICE, **COMMAND_LINE}
"""Every stable error ``type``, with its meaning."""

GROUPS: tuple[tuple[str, dict[str, str]], ...] = (
    ("the request's shape and limits", REQUEST_SHAPE),
    ("cards, hands and rules (from the library)", LIBRARY),
    ("game states (the advisor)", GAME_STATES),
    ("recorded games (the review)", RECORDS),
    ("streams, bulk files and batches", STREAMS),
    ("the service", SERVICE),
    ("the command line only", COMMAND_LINE),
)


PROBLEM_CODES: dict[str, str] = {
    "too_few_cards": "a meld of fewer than 3 cards",
    "joker_not_wild": "a printed joker in a variant where jokers are not wild",
    "joker_only": "a meld of jokers only",
    "too_few_naturals": "fewer cards standing for themselves than min_naturals_per_meld",
    "too_many_wilds": "more wild cards standing in than max_wilds_per_meld",
    "mixed_suits": "a run attempt whose cards are not of one suit",
    "mixed_ranks": "a set attempt whose cards are not of one rank",
    "set_too_large": "a set over its size limit",
    "set_repeats_suit": "a set that repeats a suit (without set_allow_same_suit)",
    "run_too_short": "a run shorter than min_run_length",
    "run_too_long": "a run of more than 13 cards",
    "duplicate_in_run": "a run holding one rank twice",
    "ace_high_not_allowed": "a run with the ace high where the variant plays it low",
    "ace_low_not_allowed": "a run with the ace low where the variant plays it high",
    "run_wraps_around": "a run around the corner (K-A-2) where the variant does not allow it",
    "not_consecutive": "a run whose cards (and wild cards) cannot cover the ranks between them",
    "not_a_meld": "cards that read as neither a set nor a run",
    "too_few_sets": "a declaration with fewer sets than the requirements",
    "too_many_sets": "more sets than an exact requirement",
    "too_few_runs": "fewer runs than the requirements",
    "too_many_runs": "more runs than an exact requirement",
    "too_few_sequences": "fewer sequences than the requirements (Indian rummy)",
    "too_many_sequences": "more sequences than an exact requirement",
    "no_pure_sequence": "fewer pure sequences than the requirements (Indian rummy)",
    "too_many_pure_sequences": "more pure sequences than an exact requirement",
    "too_few_meld_points": "melds worth less than the opening threshold (min_meld_points)",
    "cards_left_over": "a lay-down that must hold every card (lay_down_all) leaves some out",
    "card_not_in_hand": "a declared card the given hand does not hold (that often)",
    "card_count_mismatch": "a card of the given hand missing from the declaration, or an "
                           "Indian declaration of the wrong number of cards",
}
"""Every code of a problem ``POST /v1/validate`` (``solver.validate``) answers in its
``problems`` (a 200 answer, ``valid: false``); none of them is an error ``type``."""


def codes_table() -> str:
    """The Markdown list of every code, by group (README's "Error codes"), then the
    problem codes of a declared arrangement."""
    lines: list[str] = []
    for title, codes in GROUPS:
        lines.append(f"* **{title}**: " + "; ".join(f"`{code}` {meaning}"
                                                     for code, meaning in codes.items()) + ".")
    lines.append("\nNot error types: the `code` of each of `POST /v1/validate`'s `problems` "
                 "(a 200 answer with `valid: false`) is one of: " + "; ".join(
                     f"`{code}` {meaning}" for code, meaning in PROBLEM_CODES.items()) + ".")
    return "\n".join(lines)
