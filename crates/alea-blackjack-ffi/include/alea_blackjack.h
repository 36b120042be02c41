/* alea_blackjack.h: the C ABI of alea-blackjack (crates/alea-blackjack-ffi/src/lib.rs).
 * Hand-written; tests/c_example.rs checks that it declares every exported function. */
#ifndef ALEA_BLACKJACK_H
#define ALEA_BLACKJACK_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* An opaque dealer. */
typedef struct AleaBjDealer AleaBjDealer;

/* A dealer for a Blackjack spec or preset name (UTF-8), seeded; NULL on error. */
AleaBjDealer *alea_bj_new(const char *spec, uint64_t seed);
/* The next piece's index, or -1 if dealer is NULL. */
int32_t alea_bj_next(AleaBjDealer *dealer);
/* The number of distinct pieces, or -1 if dealer is NULL. */
int32_t alea_bj_piece_count(const AleaBjDealer *dealer);
/* A piece's name, owned by the dealer; NULL if out of range. */
const char *alea_bj_piece_name(const AleaBjDealer *dealer, int32_t index);
/* Frees a dealer (NULL is ignored). */
void alea_bj_free(AleaBjDealer *dealer);
/* This thread's last error message ("" if none). */
const char *alea_bj_last_error(void);

#ifdef __cplusplus
}
#endif

#endif
