/* Constant-expression and unevaluated contexts, null pointer constants and pointer
 * arithmetic: test_mutator.py checks that a line marked "none" gets no mutant, and
 * that a line marked "some" gets the mutants its comment names. */
enum { COUNT = 4 + 1 };                           /* none: enum value */
struct bits { unsigned lo : 3 + 1; };             /* none: bit-field width */
static const int table[2 + 1] = { 7, 8 - 1, 9 };  /* none: static initialiser, array size */
_Static_assert(2 > 1, "file scope");              /* none */

int contexts(int *p, int k)
{
    static int calls = 5 + 1;                     /* none: static initialiser */
    char buf[16 - 1];                             /* none: array size */
    struct bits b = {0};                          /* none: the all-zero initialiser */
    int arr[3] = {[2] = 4};                       /* some: 4 (CRCR), never the designator */
    _Static_assert(sizeof(int) >= 2, "block");    /* none */
    enum { LOCAL = 6 * 7 };                       /* none: enum value */

    switch (k) {
    case 2 + 1:                                   /* none: case label */
        return (int)sizeof(buf[k + 1]);           /* some: RVR only (sizeof's operand is not evaluated) */
    }
    if (p == 0)                                   /* some: ROR (== and != only) and NEG, no CRCR of the null pointer */
        return b.lo + calls + table[0] + arr[2];
    return *(p + 1) + COUNT + LOCAL;              /* some: CRCR of 1, never AOR of pointer + */
}
