# Included right after llama.cpp's own project() call when maieutic builds the
# llama-cpp-python wheel (CMAKE_PROJECT_llama.cpp_INCLUDE). llama-cpp-python forces
# llama.cpp's "common" library on, which only its multimodal (mtmd) library uses; with
# LLAVA_BUILD=OFF neither is needed to run a text model, and together they were about
# four fifths of the compile time. The Python bindings load libllama and libggml only.
set(LLAMA_BUILD_COMMON OFF CACHE BOOL "llama: build common utils library" FORCE)
