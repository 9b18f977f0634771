package dev.zklock;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.util.FileSystemUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Java snippets of {@code README.md} and {@code docs/guide.md} compile against zklock and the
 * test class path, so that a renamed class or method breaks the build rather than the reader.
 * <p>
 * The rule: a {@code ```java} block whose first line of code is a {@code package} or an
 * {@code import} declaration is <em>complete</em> and must compile. Complete blocks of one file
 * that declare the same package compile together (an application class, a service and its test
 * may be shown in three blocks); a complete block without a package compiles alone. Any other
 * block is a <em>fragment</em> (a method or an annotation shown in passing) and is not compiled.
 * Every block of the README and of the guide's "Getting started" section must be complete.
 * A failure names the file and the line in it.
 */
class DocumentationSnippetsTests {

	private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

	private static final Pattern FENCE = Pattern.compile("^```java\\s*$");

	private static final Pattern PACKAGE = Pattern.compile("^package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE);

	private static final Pattern PUBLIC_TYPE = Pattern
		.compile("^public\\s+(?:final\\s+|abstract\\s+|sealed\\s+)*(?:class|interface|record|enum|@interface)\\s+(\\w+)",
				Pattern.MULTILINE);

	@ParameterizedTest
	@ValueSource(strings = { "README.md", "docs/guide.md" })
	void completeSnippetsCompile(String file) throws IOException {
		List<Snippet> complete = snippets(file).stream().filter(Snippet::isComplete).toList();
		assertThat(complete).as("complete snippets of " + file).isNotEmpty();
		Map<String, List<Snippet>> units = new LinkedHashMap<>();
		for (Snippet snippet : complete) {
			String pkg = snippet.packageName();
			units.computeIfAbsent((pkg != null) ? pkg : file + ":" + snippet.line(), (key) -> new ArrayList<>())
				.add(snippet);
		}
		List<String> errors = new ArrayList<>();
		int unit = 0;
		for (List<Snippet> together : units.values()) {
			errors.addAll(compile(together, ROOT.resolve("autoconfigure/target/doc-snippets/" + unit++)));
		}
		assertThat(errors).as("compilation errors of the snippets of " + file).isEmpty();
	}

	@Test
	void theGettingStartedSnippetsAreComplete() throws IOException {
		assertThat(snippets("README.md")).isNotEmpty().allSatisfy((snippet) -> assertThat(snippet.isComplete())
			.as("README.md:" + snippet.line() + " is complete (package or imports shown)")
			.isTrue());
		List<Snippet> gettingStarted = snippets("docs/guide.md").stream()
			.filter((snippet) -> "Getting started".equals(snippet.section()))
			.toList();
		assertThat(gettingStarted).isNotEmpty().allSatisfy((snippet) -> assertThat(snippet.isComplete())
			.as("docs/guide.md:" + snippet.line() + " is complete (package or imports shown)")
			.isTrue());
	}

	private static List<String> compile(List<Snippet> snippets, Path output) throws IOException {
		FileSystemUtils.deleteRecursively(output);
		Files.createDirectories(output);
		JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
		DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
		List<SnippetSource> sources = new ArrayList<>();
		for (int i = 0; i < snippets.size(); i++) {
			sources.add(new SnippetSource(snippets.get(i), i));
		}
		String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
		List<String> options = List.of("-classpath", classPath, "-d", output.toString(), "-proc:none", "-parameters");
		compiler.getTask(null, null, diagnostics, options, null, sources).call();
		List<String> errors = new ArrayList<>();
		for (Diagnostic<? extends JavaFileObject> diagnostic : diagnostics.getDiagnostics()) {
			if (diagnostic.getKind() == Diagnostic.Kind.ERROR && diagnostic.getSource() instanceof SnippetSource source) {
				Snippet snippet = source.snippet;
				errors.add(snippet.file() + ":" + (snippet.line() + diagnostic.getLineNumber()) + ": "
						+ diagnostic.getMessage(Locale.ROOT));
			}
		}
		return errors;
	}

	private static List<Snippet> snippets(String file) throws IOException {
		List<String> lines = Files.readAllLines(ROOT.resolve(file));
		List<Snippet> snippets = new ArrayList<>();
		String section = "";
		for (int i = 0; i < lines.size(); i++) {
			String line = lines.get(i);
			if (line.startsWith("## ")) {
				section = line.substring(3).trim();
			}
			if (FENCE.matcher(line).matches()) {
				int start = i;
				StringBuilder code = new StringBuilder();
				while (++i < lines.size() && !lines.get(i).startsWith("```")) {
					code.append(lines.get(i)).append('\n');
				}
				snippets.add(new Snippet(file, start + 1, section, code.toString()));
			}
		}
		return snippets;
	}

	/**
	 * A {@code ```java} block: its file, the line of its opening fence, the {@code ##} section
	 * it is in, and its code.
	 */
	record Snippet(String file, int line, String section, String code) {

		boolean isComplete() {
			String first = this.code.lines().map(String::trim).filter((line) -> !line.isEmpty()).findFirst().orElse("");
			return first.startsWith("package ") || first.startsWith("import ");
		}

		String packageName() {
			Matcher matcher = PACKAGE.matcher(this.code);
			return matcher.find() ? matcher.group(1) : null;
		}

	}

	private static final class SnippetSource extends SimpleJavaFileObject {

		private final Snippet snippet;

		SnippetSource(Snippet snippet, int index) {
			super(URI.create("string:///" + path(snippet, index)), Kind.SOURCE);
			this.snippet = snippet;
		}

		private static String path(Snippet snippet, int index) {
			String pkg = snippet.packageName();
			Matcher type = PUBLIC_TYPE.matcher(snippet.code());
			String name = type.find() ? type.group(1) : "Snippet" + index;
			return ((pkg != null) ? pkg.replace('.', '/') + "/" : "") + name + ".java";
		}

		@Override
		public CharSequence getCharContent(boolean ignoreEncodingErrors) {
			return this.snippet.code();
		}

	}

}
