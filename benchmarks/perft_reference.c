/* perft_reference.c: a plain C Othello perft, the yardstick for bench_perft.py.
 *
 * Bitboards: bit row*8+col (a1 = bit 0, h8 = bit 63), P = side to move,
 * O = opponent. Move generation is the classic shift-and-mask loop; flips are
 * found by walking out from the move square in each direction. Node
 * convention of shared/data/perft.txt: a forced pass is one ply with one
 * child, a finished game has no children. The last ply is bulk-counted.
 *
 * Usage: perft_reference N [MIN_SECONDS [FIRST]]
 * prints "depth nodes seconds" for depth FIRST..N (default 1..N); each depth
 * is repeated until MIN_SECONDS (default 0) have passed, seconds per call.
 */
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static const int DIR[8] = {1, -1, 8, -8, 9, -9, 7, -7};
static const uint64_t MASK[8] = {   /* applied after the shift: drop wrapped bits */
    0xfefefefefefefefeULL, 0x7f7f7f7f7f7f7f7fULL, ~0ULL, ~0ULL,
    0xfefefefefefefefeULL, 0x7f7f7f7f7f7f7f7fULL, 0x7f7f7f7f7f7f7f7fULL, 0xfefefefefefefefeULL};

static uint64_t shift(uint64_t b, int i)
{
    return (DIR[i] > 0 ? b << DIR[i] : b >> -DIR[i]) & MASK[i];
}

static uint64_t legal_moves(uint64_t P, uint64_t O)
{
    uint64_t moves = 0;
    for (int i = 0; i < 8; i++) {
        uint64_t x = shift(P, i) & O;
        for (int k = 0; k < 5; k++)
            x |= shift(x, i) & O;
        moves |= shift(x, i);
    }
    return moves & ~(P | O);
}

static uint64_t flips(uint64_t P, uint64_t O, uint64_t move)
{
    uint64_t all = 0;
    for (int i = 0; i < 8; i++) {
        uint64_t f = 0, x = shift(move, i);
        while (x & O) {
            f |= x;
            x = shift(x, i);
        }
        if (x & P)
            all |= f;
    }
    return all;
}

static uint64_t perft(uint64_t P, uint64_t O, int depth)
{
    uint64_t moves = legal_moves(P, O), nodes = 0;
    if (depth == 0)
        return 1;
    if (moves == 0) {
        if (legal_moves(O, P) == 0)
            return 0;                       /* finished game: no children */
        return depth == 1 ? 1 : perft(O, P, depth - 1);   /* pass */
    }
    if (depth == 1)
        return (uint64_t)__builtin_popcountll(moves);
    while (moves) {
        uint64_t m = moves & -moves, f;
        moves ^= m;
        f = flips(P, O, m);
        nodes += perft(O ^ f, P | f | m, depth - 1);
    }
    return nodes;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s N [MIN_SECONDS [FIRST]]\n", argv[0]);
        return 2;
    }
    int n = atoi(argv[1]), first = argc > 3 ? atoi(argv[3]) : 1;
    double min_seconds = argc > 2 ? atof(argv[2]) : 0.0;
    /* volatile: keeps the compiler from hoisting the repeated call out of the loop */
    volatile uint64_t black = 0x0000000810000000ULL, white = 0x0000001008000000ULL;
    for (int d = first; d <= n; d++) {
        uint64_t nodes = 0;
        long calls = 0;
        double start = now(), elapsed;
        do {
            nodes = perft(black, white, d);
            calls++;
            elapsed = now() - start;
        } while (elapsed < min_seconds);
        printf("%d %llu %.9f\n", d, (unsigned long long)nodes, elapsed / calls);
        fflush(stdout);
    }
    return 0;
}
