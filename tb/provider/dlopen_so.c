/* Loads the provider as libibverbs does (dlopen RTLD_NOW): every symbol and symbol version
 * must resolve, and the constructor must run without a device present. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	void *h;

	if (argc != 2)
		return 2;
	h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		printf("%s\n", dlerror());
		return 1;
	}
	dlclose(h);
	return 0;
}
