package render

import (
	"fmt"

	"github.com/debatehq/debate/quote"
)

// quoteSayings says each code of package quote, why a quote is unverified,
// in one language, each with a constant format as sayings do.
type quoteSayings map[quote.ReasonCode]func(r quote.Reason) string

var chineseQuoteSayings = quoteSayings{
	quote.TooMany:    func(quote.Reason) string { return "引用过多" },
	quote.Nested:     func(quote.Reason) string { return "引用中嵌套了引用" },
	quote.Empty:      func(quote.Reason) string { return "空引用" },
	quote.TooLong:    func(r quote.Reason) string { return fmt.Sprintf("超过 %s 个字符", r.Arg(0)) },
	quote.NoName:     func(quote.Reason) string { return `没有指明文件；请写 <quote doc="路径">` },
	quote.NotFoundIn: func(r quote.Reason) string { return fmt.Sprintf("在 %s 中未找到", r.Arg(0)) },
	quote.NotFound:   func(quote.Reason) string { return "在所有文档中均未找到" },
	quote.Ambiguous:  func(quote.Reason) string { return "在多个文档中都能找到；请用 doc= 指明其一" },
	quote.NoDocument: func(r quote.Reason) string { return fmt.Sprintf("没有名为 %q 的文档", r.Arg(0)) },
	quote.Outside: func(r quote.Reason) string {
		return fmt.Sprintf("%q 不是仓库内的路径；请从仓库顶层目录写起，如 a/b.go", r.Arg(0))
	},
	quote.SecretName: func(r quote.Reason) string { return fmt.Sprintf("%s 看来存有机密，从不引用", r.Arg(0)) },
	quote.Link:       func(r quote.Reason) string { return fmt.Sprintf("%s 是符号链接，不会跟随", r.Arg(0)) },
	quote.Irregular:  func(r quote.Reason) string { return fmt.Sprintf("%s 不是普通文件", r.Arg(0)) },
	quote.TooLarge: func(r quote.Reason) string {
		return fmt.Sprintf("%s 超过 %s，即可引用文件的上限", r.Arg(0), r.Arg(1))
	},
	quote.Deleted:    func(r quote.Reason) string { return fmt.Sprintf("%s 在运行开始后被删除", r.Arg(0)) },
	quote.Unreadable: func(r quote.Reason) string { return fmt.Sprintf("%s 无法读取：%s", r.Arg(0), r.Arg(1)) },
	quote.Changed: func(r quote.Reason) string {
		return fmt.Sprintf("%s 在运行开始后被修改；引用只对照运行开始时的文件核对", r.Arg(0))
	},
	quote.Binary:     func(r quote.Reason) string { return fmt.Sprintf("%s 是二进制文件", r.Arg(0)) },
	quote.PrivateKey: func(r quote.Reason) string { return fmt.Sprintf("%s 存有私钥，从不引用", r.Arg(0)) },
	quote.Credential: func(r quote.Reason) string {
		return fmt.Sprintf("%s 存有本次运行的凭据，从不引用", r.Arg(0))
	},
	quote.NoFile: func(r quote.Reason) string { return fmt.Sprintf("仓库中没有文件 %s", r.Arg(0)) },
	quote.Folder: func(r quote.Reason) string {
		return fmt.Sprintf("%s 是文件夹；请引用其中的文件", r.Arg(0))
	},
	quote.GitFolder: func(r quote.Reason) string { return fmt.Sprintf("%s 位于 git 自己的文件夹内", r.Arg(0)) },
	quote.Ignored: func(r quote.Reason) string {
		return fmt.Sprintf("%s 被 git 忽略：只能引用 git 跟踪或会跟踪的文件", r.Arg(0))
	},
	quote.Created: func(r quote.Reason) string { return fmt.Sprintf("%s 在运行开始后才创建", r.Arg(0)) },
}
