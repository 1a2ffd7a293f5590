/* The one translation unit that compiles stb_image (heightmaps, textures). Only PNG is needed
 * by the runtime; the other decoders stay out to keep the library small. */
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#include <stb_image.h>
