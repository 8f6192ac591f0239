// Host code of the demo library; compiled by the C++ compiler.
int hostAnswer() { return 42; }
