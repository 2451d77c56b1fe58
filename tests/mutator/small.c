/* The mutator's subject: tests/test_mutator.py lists its exact mutants. It has what
 * gets mutants and what must get none: operators inside a macro's body and arguments,
 * a case label, an array size, a sizeof operand. n is an unsigned char so that a
 * mutated loop ends by wrapping around instead of by signed overflow. */
#define TWICE(x) ((x) * 2)

int small(int a, int b)
{
    char buf[8];
    unsigned char n = 0;

    if (a < b)
        n = a + b;
    while (n > 10)
        n -= 7;
    switch (b) {
    case 3:
        n = TWICE(n + 1);
        break;
    }
    n++;
    return n + (int)sizeof buf;
}
