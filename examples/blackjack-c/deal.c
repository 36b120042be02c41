/* Deals 7 pieces of a 7-bag with seed 0 through the C ABI, then shows an error.
 * Built and run by crates/alea-blackjack-ffi/tests/c_example.rs:
 *   gcc deal.c -I crates/alea-blackjack-ffi/include -L target/debug -lalea_blackjack_ffi */
#include <stdio.h>
#include "alea_blackjack.h"

int main(void) {
    AleaBjDealer *d = alea_bj_new("bag of I,J,L,O,S,T,Z", 0);
    if (d == NULL) {
        fprintf(stderr, "error: %s\n", alea_bj_last_error());
        return 1;
    }
    for (int i = 0; i < 7; i++) {
        printf("%s%s", i ? " " : "", alea_bj_piece_name(d, alea_bj_next(d)));
    }
    printf("\npieces: %d\n", alea_bj_piece_count(d));
    alea_bj_free(d);
    if (alea_bj_new("I,,J", 0) == NULL) {
        printf("refused: %s\n", alea_bj_last_error());
    }
    return 0;
}
