// Command debate makes several language models argue a question until they
// agree or a judge decides. Run "debate help" for the commands.
package main

import "os"

func main() {
	os.Exit(Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
