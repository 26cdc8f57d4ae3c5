using System.Collections.Immutable;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using CoarseTimers.Analyzers.Baseline;
using CoarseTimers.Analyzers.Rules;
using CoarseTimers.Analyzers.Tests.Infrastructure;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Text;
using Xunit;

namespace CoarseTimers.Analyzers.Tests.Baseline;

/// <summary>The baseline: keyed by rule, file and member, counted per key, never by line.</summary>
public class BaselineSuppressorTests
{
    private const string Sender = @"using System;
using System.Threading.Tasks;

namespace App;

class Sender
{
    public async Task SendAsync(int message)
    {
        for (var attempt = 0; attempt < 3; attempt++)
        {
            await Task.Delay(5);
        }
    }

    public async Task PollAsync()
    {
        while (true)
        {
            Func<Task> wait = () => Task.Delay(10);
            await wait();
        }
    }
}
";

    private const string BaselineOfSender =
        "# CoarseTimers baseline\n" +
        "CT0001\t1\tsrc/Sender.cs\tM:App.Sender.SendAsync(System.Int32)~System.Threading.Tasks.Task\n" +
        "CT0001\t1\tsrc/Sender.cs\tM:App.Sender.PollAsync~System.Threading.Tasks.Task\n";

    [Fact]
    public async Task Diagnostics_carry_their_member_lambdas_included()
    {
        var diagnostics = await Run(Sender, baseline: null);
        Assert.Equal(
            new[] { "M:App.Sender.SendAsync(System.Int32)~System.Threading.Tasks.Task", "M:App.Sender.PollAsync~System.Threading.Tasks.Task" },
            diagnostics.Select(d => d.Properties[BaselineMember.PropertyName]).ToArray());
        Assert.All(diagnostics, d => Assert.False(d.IsSuppressed));
    }

    [Fact]
    public async Task Baselined_sites_are_suppressed_and_survive_unrelated_edits()
    {
        // Lines added above both sites move them; the keys do not change.
        var edited = Sender.Replace("class Sender\n{", "class Sender\n{\n    private int _unrelated;\n\n    public int Unrelated() => _unrelated++;\n");
        Assert.NotEqual(Sender, edited);
        var diagnostics = await Run(edited, BaselineOfSender);
        Assert.Equal(2, diagnostics.Length);
        Assert.All(diagnostics, d => Assert.True(d.IsSuppressed));
    }

    [Fact]
    public async Task A_new_site_in_a_new_member_is_reported_alone()
    {
        var withNew = Sender.Replace("    public async Task PollAsync()", "    public async Task RetryAsync()\n    {\n        while (true) { await Task.Delay(1); }\n    }\n\n    public async Task PollAsync()");
        var diagnostics = await Run(withNew, BaselineOfSender);
        var reported = Assert.Single(diagnostics, d => !d.IsSuppressed);
        Assert.Equal("M:App.Sender.RetryAsync~System.Threading.Tasks.Task", reported.Properties[BaselineMember.PropertyName]);
    }

    [Fact]
    public async Task A_member_over_its_count_has_every_site_reported()
    {
        var twice = Sender.Replace("            await Task.Delay(5);", "            await Task.Delay(5);\n            await Task.Delay(6);");
        var diagnostics = await Run(twice, BaselineOfSender);
        Assert.Equal(2, diagnostics.Count(d => !d.IsSuppressed && d.Properties[BaselineMember.PropertyName] == "M:App.Sender.SendAsync(System.Int32)~System.Threading.Tasks.Task"));
        Assert.Single(diagnostics, d => d.IsSuppressed);
    }

    [Fact]
    public async Task Other_rule_other_file_or_malformed_lines_suppress_nothing()
    {
        var baseline = "CT0002\t1\tsrc/Sender.cs\tM:App.Sender.PollAsync~System.Threading.Tasks.Task\n" +
            "CT0001\t1\tsrc/Other.cs\tM:App.Sender.PollAsync~System.Threading.Tasks.Task\n" +
            "CT0001\tmany\tsrc/Sender.cs\tM:App.Sender.PollAsync~System.Threading.Tasks.Task\n" +
            "CT0001\t1\tsrc/Sender.cs\n" +
            "\t\t\t\n";
        var diagnostics = await Run(Sender, baseline);
        Assert.Equal(2, diagnostics.Length);
        Assert.All(diagnostics, d => Assert.False(d.IsSuppressed));
    }

    [Fact]
    public async Task A_hand_edited_line_with_a_trailing_tab_still_counts()
    {
        var diagnostics = await Run(Sender, BaselineOfSender.Replace("Task\n", "Task\t \n"));
        Assert.Equal(2, diagnostics.Length);
        Assert.All(diagnostics, d => Assert.True(d.IsSuppressed));
    }

    [Fact]
    public async Task A_baseline_of_another_name_counts_when_the_package_marks_it()
    {
        var unmarked = await Run(Sender, BaselineOfSender, baselinePath: "/repo/timers.baseline");
        Assert.All(unmarked, d => Assert.False(d.IsSuppressed));

        var marked = await Run(Sender, BaselineOfSender, baselinePath: "/repo/timers.baseline", markedAsBaseline: true);
        Assert.Equal(2, marked.Length);
        Assert.All(marked, d => Assert.True(d.IsSuppressed));
    }

    [Fact]
    public async Task A_site_under_a_line_directive_is_keyed_by_the_file_it_maps_to()
    {
        // Razor and T4 output map their sites to the template, and the compiler's log (which the writer reads) names it.
        var mapped = Sender.Replace("    public async Task SendAsync(int message)", "#line 40 \"/repo/src/Views/Page.razor\"\n    public async Task SendAsync(int message)");
        var baseline = "CT0001\t1\tsrc/Views/Page.razor\tM:App.Sender.SendAsync(System.Int32)~System.Threading.Tasks.Task\n";
        var diagnostics = await Run(mapped, baseline);
        Assert.True(diagnostics[0].IsSuppressed);
    }

    private static async Task<ImmutableArray<Diagnostic>> Run(string source, string? baseline, string baselinePath = "/repo/" + BaselineFile.FileName, bool markedAsBaseline = false)
    {
        var tree = CSharpSyntaxTree.ParseText(source, path: "/repo/src/Sender.cs");
        var compilation = CSharpCompilation.Create("App", new[] { tree }, TestReferences.Net80, new CSharpCompilationOptions(OutputKind.DynamicallyLinkedLibrary));
        var file = baseline is null ? null : new InMemoryText(baselinePath, baseline);
        var additional = file is null ? ImmutableArray<AdditionalText>.Empty : ImmutableArray.Create<AdditionalText>(file);
        var analyzers = ImmutableArray.Create<DiagnosticAnalyzer>(new TaskDelayAnalyzer(), new BaselineSuppressor());
        var analyzerOptions = markedAsBaseline && file is not null ? new AnalyzerOptions(additional, new MarkedBaseline(file)) : new AnalyzerOptions(additional);
        var options = new CompilationWithAnalyzersOptions(analyzerOptions, onAnalyzerException: null, concurrentAnalysis: false, logAnalyzerExecutionTime: false, reportSuppressedDiagnostics: true);
        var diagnostics = await compilation.WithAnalyzers(analyzers, options).GetAnalyzerDiagnosticsAsync();
        Assert.DoesNotContain(diagnostics, d => d.Id == "AD0001");
        return diagnostics.Where(d => d.Id == DiagnosticIds.TaskDelay).OrderBy(d => d.Location.SourceSpan.Start).ToImmutableArray();
    }

    /// <summary>What the package's targets give the compiler for the baseline it adds: the CoarseTimersBaseline metadata.</summary>
    private sealed class MarkedBaseline : AnalyzerConfigOptionsProvider
    {
        private readonly AdditionalText _baseline;

        public MarkedBaseline(AdditionalText baseline) => _baseline = baseline;

        public override AnalyzerConfigOptions GlobalOptions { get; } = new Options(ImmutableDictionary<string, string>.Empty);

        public override AnalyzerConfigOptions GetOptions(SyntaxTree tree) => GlobalOptions;

        public override AnalyzerConfigOptions GetOptions(AdditionalText textFile) => ReferenceEquals(textFile, _baseline)
            ? new Options(ImmutableDictionary<string, string>.Empty.Add("build_metadata.AdditionalFiles.CoarseTimersBaseline", "true"))
            : GlobalOptions;

        private sealed class Options : AnalyzerConfigOptions
        {
            private readonly ImmutableDictionary<string, string> _values;

            public Options(ImmutableDictionary<string, string> values) => _values = values;

            public override bool TryGetValue(string key, out string value) => _values.TryGetValue(key, out value!);
        }
    }

    private sealed class InMemoryText : AdditionalText
    {
        private readonly SourceText _text;

        public InMemoryText(string path, string text)
        {
            Path = path;
            _text = SourceText.From(text);
        }

        public override string Path { get; }

        public override SourceText GetText(CancellationToken cancellationToken = default) => _text;
    }
}
