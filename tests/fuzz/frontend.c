/* Fuzz target: the front end. The input is the text of a source file,
 * parsed and type-checked after the prelude as `futhorc check` does. */
#include "fuzz.h"
#include "tools/frontend.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    Arena a = {0};
    char *text = fuzz_cstr(data, size);
    diag_reset();
    ProgramVec files = frontend_load_text(&a, FUZZ_SOURCE_PATH, text, size, NULL, 0);
    vec_free(&files);
    arena_free(&a);
    free(text);
    return 0;
}
